package io.dpone.certify;

import io.dpone.connect.ConnectionContext;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.manifest.BatchManifest;
import io.dpone.camel.DponeCamel;
import io.dpone.route.ProgressListener;
import io.dpone.route.RunReport;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code dpone certify route-capabilities}: runs the scenario's route matrix one route at a time (so timings do
 * not compete), after an untimed warm-up and over several rotated repetitions ({@link RouteMatrix}), gates each,
 * picks {@code preferred_route_id} among the routes whose run, quality report and cleanup are green in every
 * repetition ({@link RouteChoice}: the fastest median, or the tie-break when the ranges overlap), and writes the
 * evidence files.
 */
public final class Certification {
    private final ConnectionContext context;
    private final Path workDir;

    public Certification(ConnectionContext context, Path workDir) {
        this.context = context;
        this.workDir = workDir;
    }

    /** Where a certification reports each route it starts, and that route's row progress. */
    @FunctionalInterface
    public interface RouteProgress {
        RouteProgress NONE = (index, total, routeId) -> ProgressListener.NONE;

        /** Route {@code index} (from 1) of {@code total} starts; returns the listener of its rows. */
        ProgressListener route(int index, int total, String routeId);
    }

    public CertificationReport run(BatchManifest manifest, Scenario scenario, String runId, Path output) {
        return run(manifest, scenario, runId, output, RouteProgress.NONE);
    }

    /** As {@link #run(BatchManifest, Scenario, String, Path)}, telling {@code progress} where it is. */
    public CertificationReport run(BatchManifest manifest, Scenario scenario, String runId, Path output,
                                   RouteProgress progress) {
        Instant started = Instant.now();
        io.dpone.route.BulkMode.require(manifest, context); // every route loads over the sink's one transport
        RouteMatrix.Result measured;
        ProductionTargetCheck.State productionBefore;
        Boolean productionTouched;
        try (DponeCamel camel = DponeCamel.start(null, false);
             AutoCloseable warm = EngineWarmup.start(manifest, context, runId)) {
            productionBefore = ProductionTargetCheck.read(manifest, context);
            RouteCertifier certifier = new RouteCertifier(camel, context, workDir);
            measured = new RouteMatrix(scenario.readsSource()
                ? (route, id, limit, rows) -> certifier.live(manifest, route, id, limit, rows)
                : (route, id, limit, rows) -> certifier.preflight(manifest, route, id))
                .run(scenario, runId, progress);
            productionTouched = ProductionTargetCheck.touched(productionBefore,
                ProductionTargetCheck.read(manifest, context));
        } catch (Exception e) {
            if (e instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e);
        }
        List<RouteDecision> decisions = measured.decisions();
        RouteChoice choice = RouteChoice.decide(decisions);
        String preferred = choice.preferredRouteId();
        List<Blocker> blockers = new ArrayList<>();
        if (scenario.readsSource() && preferred == null) {
            blockers.add(Blocker.of(BlockerCode.CERTIFY_NO_GREEN_ROUTE, "routes",
                "no route finished with green DQ and green cleanup"));
        } else if (!scenario.readsSource() && decisions.stream().noneMatch(d -> d.status().equals("probed"))) {
            blockers.add(Blocker.of(BlockerCode.CERTIFY_NO_GREEN_ROUTE, "routes",
                "no route passed its preflight probes: none could be selected"));
        }
        List<String> warnings = new ArrayList<>();
        decisions.stream().filter(d -> d.status().equals("blocked")).forEach(d -> warnings.add(d.routeId()
            + " blocked: " + d.blockers().stream().map(Blocker::code).distinct().toList()));
        decisions.stream().filter(d -> !d.status().equals("blocked")).forEach(d -> measured.probes()
            .getOrDefault(d.routeId(), List.of()).stream().filter(p -> p.status().equals("failed"))
            .forEach(p -> warnings.add(d.routeId() + ": probe " + p.probe() + " failed without blocking the route: "
                + p.message())));
        if (choice.withinNoise()) {
            warnings.add("route decision within noise: the rows/s ranges of " + choice.overlapping()
                + " overlap; " + preferred + " chosen by tie-break " + choice.tieBreak());
        }
        if (scenario.rowLimit() > 0) {
            warnings.add("scenario reads at most " + scenario.rowLimit() + " rows per route (key order)");
        }
        Map<String, Object> overrides = new LinkedHashMap<>();
        overrides.put("target_tables", decisions.stream().map(RouteDecision::safeTarget).toList());
        overrides.put("object_prefix", "run-scoped per route and run: <uri_prefix with {run_id} = " + runId
            + (measured.measurement().repetitions() > 1 ? ".r<repetition>" : "") + ".<route>>");
        overrides.put("production_target_touched", productionTouched);
        overrides.put("production_target_check", productionTouched == null ? "unreadable"
            : "system.tables before and after: exists, uuid, metadata_modification_time, total_rows");
        if (productionTouched == null) {
            warnings.add("the production target's state could not be read before and after; production_target_touched "
                + "is unknown");
        } else if (productionTouched) {
            warnings.add("the production target changed during the certification (certification writes only safe "
                + "targets: another writer was active, and the figures competed with it)");
        }
        CertificationReport report = new CertificationReport(CertificationReport.SCHEMA, runId, scenario.name(),
            manifest.name(), blockers.isEmpty() && decisions.stream().noneMatch(d -> d.status().equals("failed")),
            preferred, decisions, blockers, warnings, overrides, EvidenceWriter.ARTIFACTS, started, Instant.now(),
            choice, measured.measurement());
        new EvidenceWriter(output).write(report, measured.reports(), measured.probes());
        return report;
    }

    /** Whether a route's quality report is green: gates ran and none failed (skipped gates are listed as such). */
    static boolean qualityGreen(RunReport r) {
        return !r.gates().isEmpty() && r.gates().stream().noneMatch(g -> "failed".equals(g.status()));
    }
}
