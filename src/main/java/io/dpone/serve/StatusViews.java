package io.dpone.serve;

import io.dpone.cdc.runtime.CdcReports;
import io.dpone.cdc.runtime.CdcRuntimeRunReport;
import io.dpone.cdc.runtime.TickChecks;
import io.dpone.error.Blocker;
import io.dpone.quality.GateFigures;
import io.dpone.quality.GateResult;
import io.dpone.route.RunRecords;
import io.dpone.route.RunReport;
import io.dpone.route.TransferRun;
import io.dpone.status.CamelRouteStats;
import io.dpone.status.RunHistory;
import io.dpone.status.Runbook;
import io.dpone.status.StatusSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.camel.CamelContext;

/**
 * Serve's side of the status page: records each finished run and tick in the {@link RunHistory} with the evidence
 * files it may serve, and builds the {@link StatusSnapshot} from the jobs', streams' and routes' statistics. Evidence of
 * a job's run: its run record and its evidence journal in the state directory. Evidence of a tick: its report (JSON
 * and Markdown), the local sink's receipt and the checkpoint, rewritten by every tick, so only the last tick links them;
 * never the local sink's rows.
 */
final class StatusViews implements RunObserver {
    static final int SEED_MAX_FILES = 10_000;
    static final long SEED_MAX_BYTES = 1024 * 1024;
    private final RunHistory history = new RunHistory();
    private final Runbook runbook = Runbook.load();
    private final Path stateDir;

    StatusViews(Path stateDir) {
        this.stateDir = stateDir;
    }

    RunHistory history() {
        return history;
    }

    /**
     * Fills each job's history from the run records an earlier process of this serve left in the state directory
     * ({@code runs/records/}, written by every job run), so the page shows the last runs after a restart too: status,
     * rows, duration, each gate's verdict (a record keeps no figures) and the blockers with their runbook lines.
     */
    void seed(List<ServeConfig.Job> jobs) {
        Path dir = RunRecords.dir(stateDir);
        if (!Files.isDirectory(dir)) {
            return;
        }
        List<Map<String, Object>> records = new ArrayList<>();
        try (var files = Files.list(dir)) {
            files.filter(f -> f.getFileName().toString().endsWith(".json")).limit(SEED_MAX_FILES).forEach(f -> {
                try {
                    if (Files.isRegularFile(f, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                            && Files.size(f) <= SEED_MAX_BYTES) {
                        Map<String, Object> m = io.dpone.report.Json.MAPPER.readValue(Files.readAllBytes(f),
                            new com.fasterxml.jackson.core.type.TypeReference<LinkedHashMap<String, Object>>() { });
                        if (RunRecords.SCHEMA.equals(m.get("schema")) && m.get("run_id") instanceof String) {
                            m.put("__file", f);
                            records.add(m);
                        }
                    }
                } catch (java.io.IOException | RuntimeException e) {
                    // a file that is no record is not shown
                }
            });
        } catch (java.io.IOException e) {
            return;
        }
        records.sort(java.util.Comparator.comparing(m -> String.valueOf(m.get("finished_at"))));
        for (ServeConfig.Job job : jobs) {
            String by = "dpone serve (job " + job.name() + ")";
            List<Map<String, Object>> own = records.stream().filter(m -> by.equals(m.get("by"))).toList();
            for (Map<String, Object> m : own.subList(Math.max(0, own.size() - RunHistory.KEEP), own.size())) {
                history.record(job.name(), fromRecord(m), recordFiles(m), false);
            }
        }
    }

    private StatusSnapshot.Run fromRecord(Map<String, Object> m) {
        Instant started = instant(m.get("started_at"));
        Instant finished = instant(m.get("finished_at"));
        List<StatusSnapshot.Gate> gates = new ArrayList<>();
        if (m.get("gates") instanceof Map<?, ?> g) {
            g.forEach((name, status) -> gates.add(new StatusSnapshot.Gate(String.valueOf(name), String.valueOf(status),
                Map.of())));
        }
        List<StatusSnapshot.Blocker> blockers = new ArrayList<>();
        if (m.get("blockers") instanceof List<?> codes) {
            for (Object code : codes) {
                blockers.add(new StatusSnapshot.Blocker(String.valueOf(code), "", blockers.isEmpty()
                    && m.get("first_blocker") != null ? String.valueOf(m.get("first_blocker")) : "",
                    runbook.line(String.valueOf(code))));
            }
        }
        long rows = m.get("loaded_rows") instanceof Number n ? n.longValue() : 0;
        long ms = started != null && finished != null ? java.time.Duration.between(started, finished).toMillis() : 0;
        return new StatusSnapshot.Run((String) m.get("run_id"), String.valueOf(m.get("status")), finished, rows, ms,
            gates, blockers, List.of());
    }

    private Map<String, Path> recordFiles(Map<String, Object> m) {
        Map<String, Path> files = new LinkedHashMap<>();
        files.put("run_record.json", (Path) m.get("__file"));
        existing(files, "evidence_journal.json", stateDir.resolve("runs").resolve(TransferRun.keyOf(
            (String) m.get("run_id")) + ".json"));
        return files;
    }

    private static Instant instant(Object text) {
        try {
            return text instanceof String s ? Instant.parse(s) : null;
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }

    @Override
    public void runFinished(ServeConfig.Job job, RunReport r) {
        Map<String, Path> files = new LinkedHashMap<>();
        if (r.pipeline() != null) {
            existing(files, "run_record.json", RunRecords.dir(stateDir).resolve(RunRecords.fileName(r.pipeline(),
                r.runId())));
        }
        existing(files, "evidence_journal.json", stateDir.resolve("runs").resolve(TransferRun.keyOf(r.runId())
            + ".json"));
        String status = r.passed() ? (r.resumedAfterPublish() ? "passed_resumed" : "passed")
            : r.blockers().stream().anyMatch(b -> b.code().equals(
                io.dpone.error.BlockerCode.SERVE_SHUTDOWN_INTERRUPTED.code())) ? "interrupted" : "failed";
        history.record(job.name(), new StatusSnapshot.Run(r.runId(), status, r.finishedAt(), r.loadedRows(),
            r.durationMs(), gates(r.gates()), blockers(r.blockers()), List.of()), files, false);
    }

    @Override
    public void runFailed(ServeConfig.Job job, String runId, RuntimeException failure) {
        List<Blocker> blockers = failure instanceof io.dpone.error.DponeException d ? d.blockers()
            : List.of(Blocker.of(io.dpone.error.BlockerCode.INTERNAL_ERROR, "serve", failure.getClass().getSimpleName()));
        history.record(job.name(), new StatusSnapshot.Run(runId, "failed", Instant.now(), 0, 0, List.of(),
            blockers(blockers), List.of()), Map.of(), false);
    }

    @Override
    public void tickFinished(ServeConfig.CdcStream stream, java.util.UUID tick, CdcRuntimeRunReport r,
                             RuntimeException failure) {
        if (r == null) {
            return; // refused before a tick existed: the log and the failed-tick count say so
        }
        Map<String, Path> files = new LinkedHashMap<>();
        Path out = stream.options().outputDir();
        if (out != null && !r.artifacts().isEmpty()) {
            existing(files, CdcReports.JSON_FILE, out.resolve(CdcReports.JSON_FILE));
            existing(files, CdcReports.MARKDOWN_FILE, out.resolve(CdcReports.MARKDOWN_FILE));
            if (r.artifacts().containsKey("sink_receipt")) {
                existing(files, "cdc_sink_receipt.json", out.resolve(r.artifacts().get("sink_receipt")));
            }
            if (r.artifacts().containsKey("checkpoint") && stream.options().checkpointJson() != null) {
                existing(files, "checkpoint.json", stream.options().checkpointJson());
            }
        }
        long applied = r.counts() == null ? 0 : r.counts().applied();
        long ms = r.metrics() == null ? 0 : r.metrics().durationMs();
        history.record(stream.name(), new StatusSnapshot.Run(r.runId(), r.passed() ? "passed" : "failed",
            r.finishedAt(), applied, ms, gates(TickChecks.of(r)), blockers(r.blockers()), List.of()), files, true);
    }

    /** The page's view of serve now. */
    StatusSnapshot snapshot(Map<String, BatchJob> jobs, Map<String, CdcStreamJob> streams, CamelContext context) {
        List<StatusSnapshot.Job> js = new ArrayList<>();
        for (BatchJob b : jobs.values()) {
            ServeConfig.Job j = b.config();
            JobStats s = b.stats();
            var m = j.manifest();
            js.add(new StatusSnapshot.Job(j.name(), schedule(j.schedule()), ServeRuntime.routeOf(m),
                m.source().connectionRef() + ": " + m.source().table(), m.sink().connectionRef() + ": "
                    + m.sink().table(), s.getRunningRunId(), s.getInFlightPhase(), s.getInFlightRowsScanned(),
                s.getInFlightExpectedRows(), s.getInFlightChunks(), s.getRuns(), s.getFailedRuns(),
                history.last(j.name())));
        }
        List<StatusSnapshot.Stream> ss = new ArrayList<>();
        for (CdcStreamJob c : streams.values()) {
            ServeConfig.CdcStream st = c.config();
            CdcStreamStats s = c.stats();
            var o = st.options();
            String target = (o.sinkConnectionId() == null ? "local sink" : o.sinkConnectionId()) + ": "
                + String.join(", ", o.targetDatasets());
            ss.add(new StatusSnapshot.Stream(st.name(), schedule(st.schedule()), o.mode().name(), o.backend(), target,
                s.getTicks(), s.getFailedTicks(), s.getEventsApplied(), s.getCommittedPosition(), s.getHighWatermark(),
                s.getLag(), s.getMilliSecondsBehindSource(), s.lastTickAt(), verify(st, s), history.last(st.name())));
        }
        return new StatusSnapshot(Instant.now(), js, ss, CamelRouteStats.of(context));
    }

    /**
     * The last check of the stream's serving target: its scheduled {@code cdc-verify} (verdict, buckets still
     * mismatched) when the stream has {@code verify}; else the materialization's verification (key count, NOT NULL
     * columns) when the stream materializes; otherwise what exists, the last tick's own checks.
     */
    static String verify(ServeConfig.CdcStream st, CdcStreamStats s) {
        if (st.verify() != null && !"none".equals(s.getLastVerifyVerdict())) {
            return "cdc-verify " + s.getLastVerifyVerdict() + " (" + Math.max(0, s.getMismatchedBuckets())
                + " bucket(s) mismatched, " + s.getLastVerifyMs() + " ms; " + s.getVerifications() + " run, "
                + s.getFailedVerifications() + " failed)";
        }
        if (st.verify() != null && st.materialize() == null) {
            return "cdc-verify: not run yet";
        }
        if (st.materialize() != null) {
            if ("none".equals(s.getLastMaterializeStatus())) {
                return "materialization of " + st.materialize().targets() + ": not run yet";
            }
            return "materialization of " + st.materialize().targets() + " " + s.getLastMaterializeStatus()
                + " its verification (" + s.getMaterializations() + " run, " + s.getFailedMaterializations()
                + " failed)" + (s.getVisibleBehindSourceMs() < 0 ? "" : ", visible "
                + s.getVisibleBehindSourceMs() + " ms behind the source");
        }
        if ("none".equals(s.getLastStatus())) {
            return "no verify configured; no tick yet";
        }
        return "no verify configured; last tick's checks (" + String.join(", ", TickChecks.ALL) + ") "
            + s.getLastStatus();
    }

    static String schedule(ServeConfig.Schedule s) {
        if (s.cron() != null && !s.cron().isEmpty()) {
            return "cron " + s.cron();
        }
        return "every " + human(s.every()) + (s.startAfter() == null || s.startAfter().isZero() ? ""
            : ", first after " + human(s.startAfter()));
    }

    private static String human(java.time.Duration d) {
        return d.toString().substring(2).toLowerCase(java.util.Locale.ROOT);
    }

    private List<StatusSnapshot.Gate> gates(List<GateResult> gates) {
        return gates.stream().map(g -> new StatusSnapshot.Gate(g.gate(), g.status(), GateFigures.of(g.details())))
            .toList();
    }

    private List<StatusSnapshot.Blocker> blockers(List<Blocker> blockers) {
        return blockers.stream().map(b -> new StatusSnapshot.Blocker(b.code(), b.subject(), b.message(),
            runbook.line(b.code()))).toList();
    }

    private static void existing(Map<String, Path> files, String name, Path file) {
        if (Files.isRegularFile(file)) {
            files.put(name, file);
        }
    }
}
