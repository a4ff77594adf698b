package io.dpone.cli;

import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import io.dpone.manifest.BatchManifest;
import io.dpone.manifest.ManifestLoader;
import io.dpone.publication.plan.PublicationDecision;
import io.dpone.publication.plan.PublicationPlanner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dpone plan MANIFEST}: the static plan with the publication decision. Opens no connection; exits 1 when
 * the decision (or the manifest) holds blockers, still rendering the complete document.
 */
@Command(name = "plan", mixinStandardHelpOptions = true,
    description = "Render the static plan and publication decision of a batch manifest.")
public final class PlanCommand implements Callable<Integer> {
    public static final String SCHEMA = "dpone.plan.v1";

    @Parameters(index = "0", paramLabel = "MANIFEST", description = "The batch manifest (YAML) to plan.")
    Path manifest;

    @Option(names = "--format", defaultValue = "text", description = "json or text (default: ${DEFAULT-VALUE})")
    Format format;

    /** The plan document: the manifest's route (local publication) or the cluster publication decision. */
    public record PlanReport(String schema, String manifest, boolean passed, String source, String target,
                             String routeId, PublicationDecision publication, List<Blocker> blockers) {
    }

    @Override
    public Integer call() {
        List<Blocker> blockers = new ArrayList<>();
        PublicationDecision decision = null;
        String source = null;
        String target = null;
        String route = null;
        try {
            BatchManifest m = ManifestLoader.load(manifest);
            source = m.source().table().toString();
            target = m.sink().table().toString();
            decision = PublicationPlanner.decide(m, System::getenv);
            route = decision.requested() ? null : m.sink().options().route();
            ConnectionContext ctx = ConnectionContext.fromEnvironment();
            ctx.check(m.source().connectionRef(), ConnectionType.MSSQL, "source.connection_ref").ifPresent(blockers::add);
            ctx.check(m.sink().connectionRef(), ConnectionType.CLICKHOUSE, "sink.connection_ref").ifPresent(blockers::add);
            blockers.addAll(decision.blockers());
        } catch (DponeException e) {
            blockers.addAll(e.blockers());
        }
        PlanReport report = new PlanReport(SCHEMA, manifest.getFileName().toString(), blockers.isEmpty(), source,
            target, route, decision, blockers);
        return Output.emit(report.passed(), report, text(report), format);
    }

    private static String text(PlanReport r) {
        StringBuilder sb = new StringBuilder("plan ").append(r.manifest()).append(r.passed() ? ": ok\n" : ": blocked\n");
        if (r.source() != null) {
            sb.append("  ").append(r.source()).append(" -> ").append(r.target()).append('\n');
        }
        PublicationDecision d = r.publication();
        if (d != null && d.requested()) {
            sb.append("  publication: ").append(d.mode()).append(" on cluster ").append(d.cluster())
                .append(" (engine ").append(d.engine()).append(", selected ").append(d.selected())
                .append(", runtime admission required, no fallback)\n");
        } else if (r.routeId() != null) {
            sb.append("  publication: local via ").append(r.routeId()).append('\n');
        }
        return sb.append(Output.blockersText(r.blockers())).toString();
    }
}
