package io.dpone.certify;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseEndpoints;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.error.Blocker;
import io.dpone.manifest.BatchManifest;
import io.dpone.manifest.ManifestOptions;
import io.dpone.manifest.TableRef;
import io.dpone.quality.GateResult;
import io.dpone.camel.DponeCamel;
import io.dpone.route.FullRefreshRunner;
import io.dpone.route.ProbeResult;
import io.dpone.route.ProgressListener;
import io.dpone.route.RunReport;
import io.dpone.route.TransferRun;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * Certifies one route: a full refresh of the manifest's source into a safe certification target
 * ({@code <certification schema>.<table>__cert_<route>}, never the production target) under its own run id and
 * object prefix, then drops the certification target. The run's report is the route's evidence.
 */
final class RouteCertifier {
    /** Probe codes that mean "this route cannot run here", as opposed to "it ran and was red". */
    private static final Set<String> PROBE_CODES = Set.of("sink.cluster_pull_unsupported",
        "sink.auth.named_collection_missing", "format.parquet_read_unsupported", "source.columnar_writer_missing",
        "storage.runtime_put_denied", "sink.auth.named_collection_unusable");

    private final DponeCamel camel;
    private final ConnectionContext context;
    private final Path workDir;

    RouteCertifier(DponeCamel camel, ConnectionContext context, Path workDir) {
        this.camel = camel;
        this.context = context;
        this.workDir = workDir;
    }

    static TableRef safeTarget(BatchManifest m, String routeId) {
        String schema = m.certification() != null && m.certification().hasNonNull("target_schema")
            ? m.certification().get("target_schema").asText() : m.sink().table().schema();
        return new TableRef(schema, m.sink().table().name() + "__cert_" + routeId.replace('.', '_'));
    }

    static String routeRunId(String runId, String routeId) {
        return runId + "." + routeId.replace('.', '-').replace('_', '-');
    }

    /**
     * A route {@code columnar_fast_path.mode} does not admit: blocked with {@code manifest.route_excluded}, never run
     * or probed.
     */
    private static Outcome excluded(BatchManifest manifest, String routeId) {
        return ManifestOptions.excluded(manifest, routeId).map(b -> new Outcome(new RouteDecision(RouteDecision.SCHEMA,
            routeId, "blocked", false, safeTarget(manifest, routeId).toString(), 0, 0, 0, 0, false, false,
            List.of(b)), null, List.of())).orElse(null);
    }

    Outcome live(BatchManifest manifest, String routeId, String runId, long rowLimit, ProgressListener progress) {
        Outcome excluded = excluded(manifest, routeId);
        if (excluded != null) {
            return excluded;
        }
        TableRef target = safeTarget(manifest, routeId);
        RunReport report = new FullRefreshRunner(camel, context, workDir)
            .run(manifest.withTarget(target, routeId), routeRunId(runId, routeId), progress, rowLimit);
        dropQuietly(manifest, target);
        boolean blocked = !report.passed() && report.blockers().stream().allMatch(b -> PROBE_CODES.contains(b.code()));
        boolean dqGreen = !report.gates().isEmpty() && report.gates().stream()
            .filter(g -> !g.gate().equals("cleanup_audit")).noneMatch(GateResult::isFailed);
        boolean cleanupGreen = report.gates().stream().anyMatch(g -> g.gate().equals("cleanup_audit")
            && g.status().equals("passed"));
        String status = report.passed() && dqGreen && cleanupGreen ? "green" : blocked ? "blocked" : "failed";
        double mb = report.durationMs() == 0 ? 0 : report.encodedBytes() / 1e6 / (report.durationMs() / 1e3);
        RouteDecision d = new RouteDecision(RouteDecision.SCHEMA, routeId, status, "green".equals(status),
            target.toString(), report.loadedRows(), report.durationMs(), report.rowsPerSecond(),
            Math.round(mb * 100) / 100.0, dqGreen, cleanupGreen, report.blockers());
        return new Outcome(d, report, report.probes());
    }

    Outcome preflight(BatchManifest manifest, String routeId, String runId) {
        Outcome excluded = excluded(manifest, routeId);
        if (excluded != null) {
            return excluded;
        }
        TableRef target = safeTarget(manifest, routeId);
        TransferRun run = new TransferRun(io.dpone.route.RunPlan.of(manifest.withTarget(target, routeId),
            routeRunId(runId, routeId), context, workDir, ProgressListener.NONE, routeId, 0,
            io.dpone.route.RunConnectors.of(camel.context())));
        long t0 = System.nanoTime();
        List<Blocker> blockers = new RoutePreflight(camel).probe(run);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        String status = blockers.isEmpty() ? "probed" : "blocked";
        return new Outcome(new RouteDecision(RouteDecision.SCHEMA, routeId, status, false, target.toString(), 0, ms,
            0, 0, false, false, blockers), null, run.probes());
    }

    private void dropQuietly(BatchManifest manifest, TableRef target) {
        try (ClickHouseEndpoint ch = ClickHouseEndpoints.open(context.resolve(manifest.sink().connectionRef(),
                ConnectionType.CLICKHOUSE, "sink.connection_ref"))) {
            ch.operations().dropTable(target.schema(), target.name());
        } catch (RuntimeException ignored) {
            // the certification target is disposable; its absence is not part of the route's verdict
        }
    }

    /** A route's decision, its run's report (null under preflight_only) and its probes' results. */
    record Outcome(RouteDecision decision, RunReport report, List<ProbeResult> probes) {
        Outcome {
            probes = probes == null ? List.of() : List.copyOf(probes);
        }

        Outcome(RouteDecision decision, RunReport report) {
            this(decision, report, report == null ? List.of() : report.probes());
        }
    }
}
