package io.dpone.cli;

import io.dpone.certify.Certification;
import io.dpone.certify.CertificationReport;
import io.dpone.certify.RouteDecision;
import io.dpone.certify.Scenario;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.EmbeddedDefaults;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.manifest.BatchManifest;
import io.dpone.manifest.ManifestLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code dpone certify route-capabilities}: the route matrix with evidence files (see docs/certification.md). */
@Command(name = "certify", mixinStandardHelpOptions = true, description = "Certification workflows.",
    subcommands = {CertifyCommand.RouteCapabilities.class, CertifyCommand.Publication.class})
public final class CertifyCommand {
    @Command(name = "route-capabilities", mixinStandardHelpOptions = true,
        description = "Run a route capability certification scenario.")
    static final class RouteCapabilities implements Callable<Integer> {
        @Option(names = "--manifest", required = true, description = "Batch manifest.")
        Path manifest;

        @Option(names = "--scenario", required = true,
            description = "preflight_only, small_live, or a scenario declared under certification.scenarios.")
        String scenario;

        @Option(names = "--output", required = true, description = "Directory for the evidence files.")
        Path output;

        @Option(names = "--run-id", required = true, description = "Certification run id.")
        String runId;

        @Option(names = "--format", defaultValue = "text", description = "json or text (default: ${DEFAULT-VALUE})")
        Format format;

        @Option(names = {"-q", "--quiet"}, description = "No progress on stderr.")
        boolean quiet;

        private StderrProgress current;

        @Override
        public Integer call() {
            try {
                return certify();
            } finally {
                if (current != null) {
                    current.close();
                }
            }
        }

        /** Each route's rows as the run's progress, each line naming the route. */
        private io.dpone.route.ProgressListener route(int index, int total, String routeId) {
            if (current != null) {
                current.close();
            }
            current = StderrProgress.onStderr(quiet, format, "route " + index + " of " + total + " " + routeId);
            return current;
        }

        private Integer certify() {
            try {
                if (!io.dpone.manifest.RunId.valid(runId)) {
                    throw new DponeException(BlockerCode.RUN_ID_INVALID, "--run-id",
                        "run id must be 1-128 characters of letters, digits, '.', '_' or '-'");
                }
                BatchManifest m = ManifestLoader.load(manifest);
                Scenario s = Scenario.resolve(m, scenario);
                CertificationReport r = new Certification(ConnectionContext.fromEnvironment(), EmbeddedDefaults.home())
                    .run(m, s, runId, guarded(output), this::route);
                return Output.emit(r.passed(), r, text(r), format);
            } catch (DponeException e) {
                return Output.emit(false, Map.of("schema", CertificationReport.SCHEMA, "run_id", runId, "passed", false,
                    "blockers", e.blockers()), "certification blocked:\n" + Output.blockersText(e.blockers()), format);
            }
        }

        static String text(CertificationReport r) {
            StringBuilder sb = new StringBuilder("certification ").append(r.scenario()).append(' ')
                .append(r.passed() ? "passed" : "failed").append("; preferred route: ")
                .append(r.preferredRouteId() == null ? "none" : r.preferredRouteId())
                .append(r.decision().withinNoise() ? " (within noise; tie-break " + r.decision().tieBreak() + ")" : "")
                .append('\n');
            for (RouteDecision d : r.routes()) {
                sb.append(String.format("  %-32s %-8s %10d rows %8d ms %10d rows/s [%d-%d]%s%n", d.routeId(),
                    d.status(), d.rows(), d.durationMs(), d.rowsPerSecond(), d.rowsPerSecondStats().min(),
                    d.rowsPerSecondStats().max(), d.blockers().isEmpty() ? ""
                        : "  " + d.blockers().stream().map(Blocker::code).distinct().toList()));
                if (d.firstBlockerLine() != null) {
                    sb.append("      ").append(d.firstBlockerLine().replace('\n', ' ')).append('\n');
                }
            }
            List<Blocker> b = r.blockers();
            if (!b.isEmpty()) {
                sb.append(Output.blockersText(b));
            }
            return sb.toString();
        }
    }

    /**
     * {@code dpone certify publication}: live certification of the cluster publication protocol in an approved
     * environment; the only workflow that may write PASS evidence (docs/publication.md).
     */
    @Command(name = "publication", mixinStandardHelpOptions = true,
        description = "Certify cluster publication live, in an approved environment.")
    static final class Publication implements Callable<Integer> {
        @Option(names = "--manifest", required = true, description = "Cluster publication batch manifest.")
        Path manifest;

        @Option(names = "--approve-environment", required = true,
            description = "The environment name the deployment approved in DPONE_CERTIFICATION_ENVIRONMENT.")
        String environment;

        @Option(names = "--run-id", required = true, description = "Certification run id (resumable).")
        String runId;

        @Option(names = "--output", required = true, description = "Directory for publication_certification.json.")
        Path output;

        @Option(names = "--format", defaultValue = "text", description = "json or text (default: ${DEFAULT-VALUE})")
        Format format;

        @Override
        public Integer call() {
            try {
                BatchManifest m = ManifestLoader.load(manifest);
                var evidence = new io.dpone.publication.certify.PublicationCertifier(ConnectionContext.fromEnvironment(),
                    System::getenv).certify(m, runId, environment, guarded(output));
                String text = "publication certification " + evidence.evidenceStatus() + " in " + environment + "\n"
                    + Output.blockersText(evidence.blockers());
                return Output.emit(evidence.passed(), evidence, text, format);
            } catch (DponeException e) {
                return Output.emit(false, Map.of("schema",
                    io.dpone.publication.certify.PublicationCertification.SCHEMA, "run_id", runId, "passed", false,
                    "evidence_status", "NOT_RUN", "blockers", e.blockers()),
                    "publication certification not run:\n" + Output.blockersText(e.blockers()), format);
            }
        }
    }

    /** Names {@code output} as the watchdog's dump directory and returns it. */
    static java.nio.file.Path guarded(java.nio.file.Path output) {
        io.dpone.watchdog.PhaseWatchdog.runDirectory(output);
        return output;
    }
}
