package io.dpone.serve;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.ToDoubleFunction;

/**
 * Publishes the same numbers as the JMX beans to Camel's Micrometer registry, so {@code /observe/metrics} shows them
 * in Prometheus text format, following Prometheus' conventions: a HELP text on every series, base units in the name
 * ({@code _seconds}, {@code _bytes}), counters ending in {@code _total}, and every series registered when serve
 * starts (at zero), not after a first run. The meters read the stats objects; nothing is counted twice. The full
 * list is in docs/operations.md.
 */
public final class ServeMetrics {
    private final MeterRegistry registry;

    public ServeMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** A job's series ({@code job} label), with its gate results ({@code dpone_gate_status{job,gate}}). */
    public void job(TransferStats s) {
        transfer("dpone.job", "job", "job", s);
        for (String gate : TransferStats.GATES) {
            Gauge.builder("dpone.gate.status", s, stats -> stats.gateStatus(gate)).tag("job", s.getName())
                .tag("gate", gate).description("Gate result of the job's last finished run: 1 passed, 0 failed, "
                    + "-1 skipped or no run yet").strongReference(true).register(registry);
        }
    }

    /** A transfer route's series ({@code route} label). */
    public void route(TransferStats s) {
        transfer("dpone.route", "route", "route", s);
    }

    /** A fleet's series ({@code fleet} label). */
    public void fleet(FleetStats s) {
        String n = s.getName();
        counter("dpone.fleet.runs", "fleet", n, s, FleetStats::getRuns, "Finished runs of the fleet");
        counter("dpone.fleet.failed.runs", "fleet", n, s, FleetStats::getFailedRuns,
            "Finished runs of the fleet in which a table did not pass");
        counter("dpone.fleet.skipped.overlaps", "fleet", n, s, FleetStats::getSkippedOverlaps,
            "Ticks skipped because the fleet's previous run was still in flight");
        gauge("dpone.fleet.last.tables", "fleet", n, s, FleetStats::getLastTables, null,
            "Tables of the fleet's last finished run");
        gauge("dpone.fleet.last.failed.tables", "fleet", n, s, FleetStats::getLastFailedTables, null,
            "Tables that failed in the fleet's last finished run");
        gauge("dpone.fleet.last.rows", "fleet", n, s, FleetStats::getLastRows, null,
            "Rows loaded by the fleet's last finished run");
        gauge("dpone.fleet.last.duration", "fleet", n, s, st -> st.getLastDurationMs() / 1000.0, "seconds",
            "Wall time of the fleet's last finished run");
        gauge("dpone.fleet.last.success.timestamp", "fleet", n, s, FleetStats::getLastSuccessEpochSeconds, "seconds",
            "Unix time the fleet's last passing run ended (0 before the first)");
        gauge("dpone.fleet.inflight.tables.done", "fleet", n, s, FleetStats::getInFlightTablesDone, null,
            "Tables the fleet's run in flight has finished (0 when idle)");
    }

    public void cdc(CdcStreamStats s) {
        String n = s.getName();
        counter("dpone.cdc.ticks", "stream", n, s, CdcStreamStats::getTicks, "CDC ticks run");
        counter("dpone.cdc.failed.ticks", "stream", n, s, CdcStreamStats::getFailedTicks,
            "CDC ticks that did not pass");
        counter("dpone.cdc.skipped.overlaps", "stream", n, s, CdcStreamStats::getSkippedOverlaps,
            "CDC ticks skipped because a tick of the same target was in flight");
        counter("dpone.cdc.events.read", "stream", n, s, CdcStreamStats::getEventsRead, "Change events read");
        counter("dpone.cdc.events.applied", "stream", n, s, CdcStreamStats::getEventsApplied,
            "Change events applied to the sink (replays not counted)");
        gauge("dpone.cdc.lag", "stream", n, s, CdcStreamStats::getLag, null,
            "Distance from the committed position to the source's high watermark, when both are numbers");
        gauge("dpone.cdc.behind.source", "stream", n, s, st -> st.getMilliSecondsBehindSource() < 0 ? Double.NaN
                : st.getMilliSecondsBehindSource() / 1000.0, "seconds",
            "Time behind the source after the last tick (live streams): 0 when caught up, else the source clock minus "
                + "the commit time of the committed position; NaN when unknown");
        gauge("dpone.cdc.last.duration", "stream", n, s, st -> st.getLastDurationMs() / 1000.0, "seconds",
            "Duration of the last tick");
        for (io.dpone.retry.OperationKind kind : CdcStreamStats.TICK_RETRY_KINDS) {
            FunctionCounter.builder("dpone.cdc.retries", s, st -> st.retries(kind)).tag("stream", n)
                .tag("operation", kind.key()).description("Attempts the stream's finished ticks retried after a "
                    + "transient fault, per idempotent operation kind").register(registry);
        }
        counter("dpone.cdc.retry.budget.exhausted.ticks", "stream", n, s,
            CdcStreamStats::getRetryBudgetExhaustedTicks,
            "Finished ticks of the stream that failed because they spent their retry budget");
        counter("dpone.cdc.materializations", "stream", n, s, CdcStreamStats::getMaterializations,
            "Materializations of the serving target after ticks (cdc_streams[].materialize)");
        counter("dpone.cdc.failed.materializations", "stream", n, s, CdcStreamStats::getFailedMaterializations,
            "Materializations that did not pass");
        gauge("dpone.cdc.materialize.last.duration", "stream", n, s, st -> st.getLastMaterializeMs() / 1000.0,
            "seconds", "Duration of the last materialization");
        gauge("dpone.cdc.visible.behind.source", "stream", n, s, st -> st.getVisibleBehindSourceMs() < 0 ? Double.NaN
                : st.getVisibleBehindSourceMs() / 1000.0, "seconds",
            "Time the serving target was behind the source when the last materialization finished: the tick's time "
                + "behind the source plus the time until the view was updated; NaN when unknown");
        counter("dpone.cdc.verifications", "stream", n, s, CdcStreamStats::getVerifications,
            "Scheduled verifications of the serving target against the source (cdc_streams[].verify)");
        counter("dpone.cdc.failed.verifications", "stream", n, s, CdcStreamStats::getFailedVerifications,
            "Scheduled verifications that found a mismatch or were blocked");
        gauge("dpone.cdc.verify.mismatched.buckets", "stream", n, s, st -> st.getMismatchedBuckets() < 0 ? Double.NaN
                : st.getMismatchedBuckets(), null,
            "Key-hash buckets of the serving target that differed from the source at the last verification (after "
                + "the repair, when it repairs); NaN until one compared");
        gauge("dpone.cdc.verify.last.duration", "stream", n, s, st -> st.getLastVerifyMs() / 1000.0, "seconds",
            "Duration of the last verification");
        // every table the stream has, and every table that joins it later (a capture instance an include pattern
        // matches while the pod runs)
        s.onTable(table -> {
            FunctionCounter.builder("dpone.cdc.table.snapshot.rows", s, st -> st.tableSnapshotRows(table))
                .tags("stream", n, "table", table).description("Rows of one table's snapshot hand-over written to its "
                    + "log when it joined the running multi-table stream").register(registry);
            FunctionCounter.builder("dpone.cdc.table.events.read", s, st -> st.tableEventsRead(table))
                .tags("stream", n, "table", table).description("Change events of one table of a multi-table "
                    + "stream read").register(registry);
            FunctionCounter.builder("dpone.cdc.table.events.applied", s, st -> st.tableEventsApplied(table))
                .tags("stream", n, "table", table).description("Change events of one table of a multi-table "
                    + "stream applied to its log (replays not counted)").register(registry);
            FunctionCounter.builder("dpone.cdc.table.materializations", s, st -> st.tableMaterializations(table))
                .tags("stream", n, "table", table).description("Materializations of one table's serving target "
                    + "(tables[].materialize_target) after ticks that applied its changes").register(registry);
            FunctionCounter.builder("dpone.cdc.table.failed.materializations", s,
                    st -> st.tableFailedMaterializations(table)).tags("stream", n, "table", table)
                .description("Materializations of one table's serving target that did not pass").register(registry);
            Gauge.builder("dpone.cdc.table.behind.source", s, st -> st.tableMillisBehindSource(table) < 0 ? Double.NaN
                    : st.tableMillisBehindSource(table) / 1000.0).tags("stream", n, "table", table)
                .baseUnit("seconds").description("Time one table of a multi-table stream is behind the source after "
                    + "the last tick: 0 when it has no change beyond the tick's bound, else the stream's; NaN when "
                    + "unknown").strongReference(true).register(registry);
        });
    }

    /** {@code dpone_connection_up{alias}}: 1 when the alias answers its round trip, else 0. */
    public void connection(ConnectionHealthCheck c) {
        gauge("dpone.connection.up", "alias", c.alias(), c, check -> check.up() ? 1 : 0, null,
            "1 when the connection alias answers SELECT 1 (or a list, for object storage), 0 when not; probed at "
                + "most every 5 s");
    }

    private void transfer(String prefix, String tag, String what, TransferStats s) {
        String n = s.getName();
        counter(prefix + ".rows.moved", tag, n, s, TransferStats::getRowsMoved,
            "Rows loaded into staging by the " + what + "'s finished runs");
        FunctionCounter.builder(prefix + ".moved", s, TransferStats::getBytesMoved).tag(tag, n).baseUnit("bytes")
            .description("Encoded bytes loaded by the " + what + "'s finished runs").register(registry);
        counter(prefix + ".chunks.moved", tag, n, s, TransferStats::getChunksMoved,
            "Chunks loaded by the " + what + "'s finished runs");
        counter(prefix + ".runs", tag, n, s, TransferStats::getRuns, "Finished runs of the " + what);
        counter(prefix + ".failed.runs", tag, n, s, TransferStats::getFailedRuns,
            "Finished runs of the " + what + " that did not pass");
        counter(prefix + ".skipped.overlaps", tag, n, s, TransferStats::getSkippedOverlaps,
            "Ticks skipped because a run of the same target table was in flight");
        for (io.dpone.retry.OperationKind kind : io.dpone.retry.OperationKind.values()) {
            FunctionCounter.builder(prefix + ".retries", s, st -> st.retries(kind)).tag(tag, n)
                .tag("operation", kind.key()).description("Attempts the " + what + "'s finished runs retried after "
                    + "a transient fault, per idempotent operation kind").register(registry);
        }
        counter(prefix + ".retry.budget.exhausted.runs", tag, n, s, TransferStats::getRetryBudgetExhaustedRuns,
            "Finished runs of the " + what + " that failed because they spent their retry budget");
        gauge(prefix + ".last.duration", tag, n, s, st -> st.getLastDurationMs() / 1000.0, "seconds",
            "Duration of the " + what + "'s last finished run");
        gauge(prefix + ".last.rows", tag, n, s, TransferStats::getLastRows, null,
            "Rows loaded by the " + what + "'s last finished run");
        gauge(prefix + ".last.success.timestamp", tag, n, s, TransferStats::getLastSuccessEpochSeconds, "seconds",
            "Unix time the " + what + "'s last passing run ended (0 before the first)");
        gauge(prefix + ".inflight.rows.scanned", tag, n, s, TransferStats::getInFlightRowsScanned, null,
            "Rows the run in flight has read from the source (0 when idle)");
        gauge(prefix + ".inflight.expected.rows", tag, n, s, TransferStats::getInFlightExpectedRows, null,
            "Rows the run in flight expects, the source's estimate (0 when idle or unknown)");
        gauge(prefix + ".inflight.chunks", tag, n, s, TransferStats::getInFlightChunks, null,
            "Chunks the run in flight has loaded so far (0 when idle)");
    }

    private <T> void counter(String name, String tag, String value, T obj, ToDoubleFunction<T> f, String help) {
        FunctionCounter.builder(name, obj, f).tag(tag, value).description(help).register(registry);
    }

    private <T> void gauge(String name, String tag, String value, T obj, ToDoubleFunction<T> f, String unit,
                           String help) {
        Gauge.builder(name, obj, f).tag(tag, value).baseUnit(unit).description(help).strongReference(true)
            .register(registry);
    }
}
