package io.dpone.serve;

import io.dpone.cdc.runtime.CdcRuntimeRunReport;
import io.dpone.cdc.runtime.TickChecks;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.lineage.LineageEmitter;
import io.dpone.lineage.LineageRun;
import io.dpone.route.RunReport;
import io.dpone.source.SourceColumn;
import io.dpone.source.SourceTable;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Serve's lineage events ({@code lineage:} in the serve configuration): a job's run emits START as it starts and
 * COMPLETE, FAIL or ABORT (a stop interrupted it; the next start resumes it) with the columns its source was described
 * with and its gates; a stream's tick emits START and COMPLETE or FAIL with the batch's columns and the tick's checks
 * ({@link TickChecks}). A job's OpenLineage run id is derived from its dpone run id, so a resumed run keeps it.
 */
final class LineageObserver implements RunObserver {
    static final String JOB = "full_refresh";
    static final String TICK = "cdc_tick";
    private final LineageEmitter emitter;
    private final Map<String, SourceTable> described = new ConcurrentHashMap<>();

    LineageObserver(LineageEmitter emitter) {
        this.emitter = emitter;
    }

    static UUID runUuid(String job, String runId) {
        return UUID.nameUUIDFromBytes(("dpone:" + job + ":" + runId).getBytes(StandardCharsets.UTF_8));
    }

    private static LineageRun run(ServeConfig.Job job, String runId) {
        var m = job.manifest();
        return new LineageRun(runUuid(job.name(), runId), job.name(), JOB,
            new LineageRun.Dataset(m.source().connectionRef(), m.source().table().toString()),
            new LineageRun.Dataset(m.sink().connectionRef(), m.sink().table().toString()));
    }

    private static LineageRun run(ServeConfig.CdcStream stream, UUID tick) {
        var o = stream.options();
        return new LineageRun(tick, stream.name(), TICK,
            new LineageRun.Dataset(o.sourceConnectionId() == null ? "local_events" : o.sourceConnectionId(),
                o.unresolved() ? String.join(",", o.selection().include()) : o.stream().sourceTableName()),
            new LineageRun.Dataset(o.sinkConnectionId() == null ? "local_sink" : o.sinkConnectionId(),
                String.join(",", o.targetDatasets())));
    }

    @Override
    public void runStarting(ServeConfig.Job job, String runId) {
        described.remove(runId);
        emitter.start(run(job, runId));
    }

    @Override
    public void runDescribed(ServeConfig.Job job, String runId, SourceTable table) {
        described.put(runId, table);
    }

    @Override
    public void runFinished(ServeConfig.Job job, RunReport r) {
        SourceTable table = described.remove(r.runId());
        List<LineageRun.Column> columns = table == null ? List.of() : columns(table.columns());
        boolean interrupted = r.blockers().stream().anyMatch(b -> b.code().equals(
            BlockerCode.SERVE_SHUTDOWN_INTERRUPTED.code()));
        LineageRun.Outcome outcome = outcome(r.runId(), columns, r.loadedRows(), r.gates(), r.blockers());
        if (interrupted) {
            emitter.abort(run(job, r.runId()), outcome);
        } else {
            emitter.end(run(job, r.runId()), r.passed(), outcome);
        }
    }

    @Override
    public void runFailed(ServeConfig.Job job, String runId, RuntimeException failure) {
        described.remove(runId);
        emitter.end(run(job, runId), false, outcome(runId, List.of(), 0, List.of(), blockers(failure)));
    }

    @Override
    public void tickStarting(ServeConfig.CdcStream stream, UUID tick) {
        emitter.start(run(stream, tick));
    }

    @Override
    public void tickFinished(ServeConfig.CdcStream stream, UUID tick, CdcRuntimeRunReport r,
                             RuntimeException failure) {
        if (r == null) {
            emitter.end(run(stream, tick), false, outcome(null, List.of(), 0, List.of(), blockers(failure)));
            return;
        }
        emitter.end(run(stream, tick), r.passed(), outcome(r.runId(), columns(r.columns()),
            r.counts() == null ? 0 : r.counts().applied(), TickChecks.of(r), r.blockers()));
    }

    private static List<Blocker> blockers(RuntimeException failure) {
        return failure instanceof DponeException d ? d.blockers() : List.of(Blocker.of(BlockerCode.INTERNAL_ERROR,
            "serve", failure == null ? "no report" : failure.getClass().getSimpleName()));
    }

    private static LineageRun.Outcome outcome(String runId, List<LineageRun.Column> columns, long rows,
                                              List<io.dpone.quality.GateResult> gates, List<Blocker> blockers) {
        return new LineageRun.Outcome(runId, columns, rows, gates, blockers.stream().map(Blocker::code).toList(),
            blockers.isEmpty() ? null : blockers.get(0).message());
    }

    private static List<LineageRun.Column> columns(List<SourceColumn> columns) {
        return columns.stream().map(c -> new LineageRun.Column(c.name(), c.sourceType(), c.clickHouseType()))
            .toList();
    }
}
