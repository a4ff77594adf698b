package io.dpone;

import io.dpone.connect.ConnectionContext;
import io.dpone.connect.EmbeddedDefaults;
import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import io.dpone.manifest.BatchManifest;
import io.dpone.manifest.ManifestLoader;
import io.dpone.camel.DponeCamel;
import io.dpone.route.FullRefreshRunner;
import io.dpone.route.ProgressListener;
import io.dpone.route.RunRecords;
import io.dpone.route.RunReport;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The public Java API. {@code Dpone.run(manifest, runId)} goes through the same admission, route, gates and
 * report as {@code dpone run}: it starts the camel-main context, runs, and stops it, and records the run for
 * {@code dpone runs} in the state directory ({@code <workDir>/runs/records}, by default under {@code $DPONE_HOME}).
 */
public final class Dpone {
    private Dpone() {
    }

    /** Runs {@code manifest} with {@code runId} using the process's connection context. Never throws for a run failure. */
    public static RunReport run(Path manifest, String runId) {
        return run(manifest, runId, ConnectionContext.fromEnvironment(), ProgressListener.NONE);
    }

    /** Runs with an explicit connection context and progress listener. */
    public static RunReport run(Path manifest, String runId, ConnectionContext context, ProgressListener progress) {
        return run(manifest, runId, context, progress, EmbeddedDefaults.home());
    }

    /** As above, with an explicit state directory (run journals and spooled chunks live there). */
    public static RunReport run(Path manifest, String runId, ConnectionContext context, ProgressListener progress,
                                Path workDir) {
        Instant started = Instant.now();
        BatchManifest m;
        try {
            m = ManifestLoader.load(manifest);
        } catch (DponeException e) {
            return failed(runId, e.blockers(), started);
        }
        RunReport report;
        try (DponeCamel camel = DponeCamel.start(null, false)) {
            report = new FullRefreshRunner(camel, context, workDir).run(m, runId, progress); // the full_refresh route
        } catch (DponeException e) {
            return failed(runId, e.blockers(), started);
        }
        // next to the run's evidence journal, for dpone runs (a record that cannot be written never fails the run)
        RunRecords.record(workDir, report, "Dpone.run(manifest, \"" + runId + "\") with the same manifest and run id",
            "the Java API (io.dpone.Dpone.run)");
        return report;
    }

    private static RunReport failed(String runId, List<Blocker> blockers, Instant started) {
        Instant end = Instant.now();
        return new RunReport(RunReport.SCHEMA, runId, false, null, null, null, null, 0, 0, 0, 0, false, List.of(),
            blockers, Map.of(), started, end, java.time.Duration.between(started, end).toMillis(), 0);
    }
}
