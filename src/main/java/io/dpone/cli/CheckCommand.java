package io.dpone.cli;

import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import io.dpone.manifest.BatchManifest;
import io.dpone.manifest.ManifestLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dpone check MANIFEST}: static validation, no connection opened, every problem reported at once; with
 * {@code --connect}, the source's columns as they would move ({@link SourceColumnsCheck}).
 */
@Command(name = "check", mixinStandardHelpOptions = true,
    description = "Validate a batch manifest and its connection refs without side effects.")
public final class CheckCommand implements Callable<Integer> {
    public static final String SCHEMA = "dpone.check.v1";

    @Parameters(index = "0", paramLabel = "MANIFEST", description = "The batch manifest (YAML) to check.")
    Path manifest;

    @Option(names = "--format", defaultValue = "text", description = "json or text (default: ${DEFAULT-VALUE})")
    Format format;

    @Option(names = "--connect", description = "Also reach every referenced connection (a login, SELECT 1, a list; "
        + "each within 20 s) and say per alias what works; then read the source's catalogue (no rows): list every "
        + "column with the ClickHouse type it lands as and the value policy in force, and refuse what cannot move, "
        + "all at once.")
    boolean connect;

    /**
     * The check document; {@code connections}, {@code columns} and {@code notes} only with {@code --connect} (absent
     * otherwise).
     */
    public record CheckReport(String schema, String manifest, boolean passed, String routeId, List<Blocker> blockers,
                              @com.fasterxml.jackson.annotation.JsonInclude(
                                  com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                              List<ConnectionsCheck.Connection> connections,
                              @com.fasterxml.jackson.annotation.JsonInclude(
                                  com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                              List<SourceColumnsCheck.Column> columns,
                              @com.fasterxml.jackson.annotation.JsonInclude(
                                  com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
                              List<String> notes) {
    }

    /**
     * The connection aliases the manifest names, checked against the connection context. Read from the manifest's
     * text, so the aliases of a manifest that failed validation are checked too: every problem at once.
     */
    private static final Map<String, ConnectionType> REF_TYPES = refTypes();

    private static Map<String, ConnectionType> refTypes() {
        Map<String, ConnectionType> types = new java.util.LinkedHashMap<>();
        types.put("source.connection_ref", ConnectionType.MSSQL);
        types.put("sink.connection_ref", ConnectionType.CLICKHOUSE);
        types.put("source.options.native_transfer.snapshot.columnar_fast_path.object_storage.runtime_access"
            + ".connection_id", ConnectionType.S3);
        return java.util.Collections.unmodifiableMap(types);
    }

    /** The connection context and the manifest's references that {@link #checkRefs} read, for {@code --connect}. */
    private ConnectionContext context;
    private Map<String, String> refs = Map.of();

    private void checkRefs(List<Blocker> blockers) {
        Map<String, ConnectionType> types = REF_TYPES;
        try {
            ConnectionContext ctx = ConnectionContext.fromEnvironment();
            context = ctx;
            refs = ManifestLoader.connectionRefs(manifest, List.copyOf(types.keySet()));
            refs.forEach((path, alias) -> ctx.check(alias, types.get(path), path).ifPresent(blockers::add));
            Map<String, String> sink = ManifestLoader.connectionRefs(manifest, List.of("sink.connection_ref",
                io.dpone.route.BulkMode.PATH));
            io.dpone.route.BulkMode.check(sink.get(io.dpone.route.BulkMode.PATH), sink.get("sink.connection_ref") == null
                ? null : ctx.entry(sink.get("sink.connection_ref")).orElse(null)).ifPresent(blockers::add);
        } catch (DponeException e) {
            blockers.addAll(e.blockers());
        }
    }

    @Override
    public Integer call() {
        List<Blocker> blockers = new ArrayList<>();
        String route = null;
        BatchManifest m = null;
        try {
            m = ManifestLoader.load(manifest);
        } catch (DponeException e) {
            blockers.addAll(e.blockers());
        }
        checkRefs(blockers);
        if (m != null) {
            try {
                var decision = io.dpone.publication.plan.PublicationPlanner.decide(m, System::getenv);
                route = decision.requested() ? io.dpone.publication.runtime.ClusterPublicationRunner.ROUTE_ID
                    : m.sink().options().route();
                blockers.addAll(decision.blockers());
            } catch (DponeException e) {
                blockers.addAll(e.blockers());
            }
        }
        SourceColumnsCheck.Result source = null;
        ConnectionsCheck.Result reached = null;
        if (connect && m != null && blockers.isEmpty()) {
            reached = ConnectionsCheck.run(context, refs, REF_TYPES);
            blockers.addAll(reached.blockers());
            if (reached.reached("source.connection_ref")) {
                source = SourceColumnsCheck.run(m);
                blockers.addAll(source.blockers());
            }
        }
        CheckReport report = new CheckReport(SCHEMA, manifest.getFileName().toString(), blockers.isEmpty(), route,
            blockers, reached == null ? null : reached.connections(), source == null ? null : source.columns(),
            source == null ? List.of() : source.notes());
        String columns = source == null || source.columns().isEmpty() ? ""
            : "columns of " + m.source().table() + ":\n" + SourceColumnsCheck.text(source);
        String text = (blockers.isEmpty() ? "check passed: " + report.manifest() + " (route " + route + ")\n"
            : "check found " + blockers.size() + " blocker(s) in " + report.manifest() + ":\n"
                + Output.blockersText(blockers)) + (reached == null ? "" : ConnectionsCheck.text(reached)) + columns;
        return Output.emit(report.passed(), report, text, format);
    }
}
