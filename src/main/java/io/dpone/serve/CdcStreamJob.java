package io.dpone.serve;

import io.dpone.cdc.clickhouse.CdcMaterializer;
import io.dpone.cdc.runtime.CdcRuntime;
import io.dpone.cdc.runtime.CdcRuntimeRunReport;
import io.dpone.cdc.runtime.CdcTickRunner;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseEndpoints;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.Redactor;
import io.dpone.camel.DponeCamel;
import java.util.List;
import java.util.Map;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One periodic CDC tick through the {@code cdc_runtime_tick} route, in the stream's mode: {@code local} (an events
 * file, into the local sink or, with {@code sink_connection_id}, the ClickHouse log) or {@code live} (the source
 * alias's SQL Server CDC or Change Tracking reader into the ClickHouse log). A tick resumes from the durable offset store,
 * so a stop between ticks (or mid-tick, before the commit) loses nothing and duplicates nothing.
 */
public final class CdcStreamJob implements Processor {
    private static final Logger LOG = LoggerFactory.getLogger(CdcStreamJob.class);

    private final ServeConfig.CdcStream stream;
    private final DponeCamel camel;
    private final TargetLocks locks;
    private final ShutdownSignal signal;
    private final CdcStreamStats stats;
    private final ConnectionContext context;
    /** False until a materialization passed (and again after one failed): the next tick materializes even if idle. */
    private volatile boolean materializedOnce;
    private final RunObserver observer;
    /** A multi-table stream's tables ({@code schema.table}) whose last materialization passed. */
    private final java.util.Set<String> materializedTables = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** When the last scheduled verification started ({@link System#nanoTime}), or 0 before the first. */
    private volatile long lastVerifyNanos;

    public CdcStreamJob(ServeConfig.CdcStream stream, DponeCamel camel, TargetLocks locks, ShutdownSignal signal,
                        ConnectionContext context) {
        this(stream, camel, locks, signal, context, RunObserver.NONE);
    }

    /** As above, telling {@code observer} (the status page's history, lineage) about each tick. */
    public CdcStreamJob(ServeConfig.CdcStream stream, DponeCamel camel, TargetLocks locks, ShutdownSignal signal,
                        ConnectionContext context, RunObserver observer) {
        this.observer = observer;
        this.context = context;
        this.stream = stream;
        this.camel = camel;
        this.locks = locks;
        this.signal = signal;
        // a stream choosing its tables by patterns learns them from its ticks (the stats add each as it is reported)
        this.stats = new CdcStreamStats(stream.name(), stream.options().unresolved() ? List.of()
            : stream.options().stream().tables().stream().map(io.dpone.cdc.StreamIdentity::sourceTableName).toList());
    }

    /**
     * Materializes the stream's log into {@code materialize.target_dataset} (same sink alias, the stream's unique
     * keys); a failure is logged with its blocker codes and retried after the next tick.
     */
    private void materialize(long tickEnd) {
        materializedOnce = materializeTable(null, stream.options().targetDataset(), stream.materialize().targetDataset(),
            stream.options().uniqueKeys(), tickEnd);
    }

    /**
     * A multi-table stream: each table whose log this tick applied changes to (or whose last materialization did not
     * pass) is materialized from its own log into its {@code tables[].materialize_target}, with its own unique keys and
     * the stream's {@code materialize} mode, delete mode and retention. Each materialization counts in the stream's
     * figures; a failure is logged and counted by table ({@code LastMaterializeFailedTables}) and retried after the
     * next tick, the other tables are still materialized.
     */
    private void materializeTables(CdcRuntimeRunReport r, long tickEnd) {
        Map<String, Long> applied = new java.util.HashMap<>();
        for (CdcRuntimeRunReport.TableFigures t : r.tables()) {
            // an added table's snapshot rows count as applied: its serving target needs them
            applied.put(t.sourceTable(), t.counts() == null ? 0L : t.counts().applied() + (long) t.snapshotApplied());
        }
        boolean all = true;
        for (io.dpone.cdc.runtime.CdcRunOptions.Table t : tablesOf(r)) {
            String table = t.sourceSchema() + "." + t.sourceTable();
            String target = stream.materialize().targetTemplate() == null ? stream.materialize().tableTargets()
                .get(table) : io.dpone.cdc.runtime.TableSelections.target(stream.materialize().targetTemplate(),
                    t.sourceSchema(), t.sourceTable());
            if (target == null || target.equals(t.targetDataset())) {
                LOG.warn("cdc stream {}: {} has no serving target its name can form under materialize.target_template"
                    + "; it is not materialized", stream.name(), table);
                all = false;
                continue;
            }
            if (applied.getOrDefault(table, 0L) > 0 || !materializedTables.contains(table)) {
                boolean passed = materializeTable(table, t.targetDataset(), target, t.uniqueKeys(), tickEnd);
                if (passed) {
                    materializedTables.add(table);
                } else {
                    materializedTables.remove(table);
                }
                stats.tableMaterialized(table, passed);
            }
            all &= materializedTables.contains(table);
        }
        materializedOnce = all;
    }

    /**
     * The stream's tables in this tick: the configured list, or, for a stream choosing its tables by patterns, the
     * tables its tick resolved ({@code table_selection.matched}, with their logs and primary keys).
     */
    private List<io.dpone.cdc.runtime.CdcRunOptions.Table> tablesOf(CdcRuntimeRunReport r) {
        if (r.tableSelection() == null) {
            return stream.options().tables();
        }
        List<io.dpone.cdc.runtime.CdcRunOptions.Table> out = new java.util.ArrayList<>();
        for (Object o : (List<?>) r.tableSelection().get("matched")) {
            Map<?, ?> m = (Map<?, ?>) o;
            String[] name = String.valueOf(m.get("table")).split("\\.", 2);
            out.add(new io.dpone.cdc.runtime.CdcRunOptions.Table(name[0], name[1], String.valueOf(m.get(
                "target_dataset")), ((List<?>) m.get("unique_keys")).stream().map(String::valueOf).toList()));
        }
        return out;
    }

    /** One log into one serving target; true when the materialization passed. {@code table} null: the stream's one. */
    private boolean materializeTable(String table, String log, String target, List<String> keys, long tickEnd) {
        ServeConfig.Materialize m = stream.materialize();
        String what = table == null ? target : table + " into " + target;
        long t0 = System.nanoTime();
        boolean passed = false;
        try (ClickHouseEndpoint ch = ClickHouseEndpoints.open(context.resolve(stream.options().sinkConnectionId(),
            ConnectionType.CLICKHOUSE, "--sink-connection-id"))) {
            CdcMaterializer.Incremental inc = CdcMaterializer.Incremental.defaults();
            Map<String, Object> report = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(
                log, target, keys, m.deleteMode(),
                m.mode(), new CdcMaterializer.Incremental(inc.batchRows(), m.tombstoneRetention(), inc.compact(),
                    inc.compactMaxParts(), inc.compactMaxUnmergedShare(), inc.servingView())), null);
            passed = Boolean.TRUE.equals(report.get("passed"));
            if (passed) {
                LOG.debug("cdc stream {}: materialized {} ({} log row(s))", stream.name(), what,
                    report.get("rows_in"));
            } else {
                LOG.warn("cdc stream {}: materialization of {} failed {}", stream.name(), what,
                    Redactor.global().redact(((List<?>) report.get("blockers")).stream()
                        .map(b -> ((io.dpone.error.Blocker) b).code()).toList().toString()));
            }
        } catch (RuntimeException e) {
            LOG.error("cdc stream {}: materialization of {}: {}", stream.name(), what, Redactor.global().describe(e));
        }
        long end = System.nanoTime();
        stats.materialized(passed, (end - t0) / 1_000_000, (end - tickEnd) / 1_000_000);
        return passed;
    }

    /**
     * {@code cdc_streams[].verify}: when {@code every} has passed since the last one (and the last materialization
     * passed), verifies the serving target against the source; the verdict and the mismatched buckets go to the
     * stream's metrics ({@code dpone_cdc_verify_mismatched_buckets}).
     */
    private void verifyWhenDue() {
        ServeConfig.Verify v = stream.verify();
        long now = System.nanoTime();
        if (v == null || !materializedOnce || (lastVerifyNanos != 0 && now - lastVerifyNanos < v.every().toNanos())) {
            return;
        }
        lastVerifyNanos = now;
        String verdict = "blocked";
        long mismatched = -1;
        var o = stream.options();
        try {
            io.dpone.connect.ConnectionSpec source = context.resolve(o.sourceConnectionId(), ConnectionType.MSSQL,
                "--source-connection-id");
            try (ClickHouseEndpoint ch = ClickHouseEndpoints.open(context.resolve(o.sinkConnectionId(),
                ConnectionType.CLICKHOUSE, "--sink-connection-id"));
                 io.dpone.source.JdbcSourceReader rows = io.dpone.source.JdbcSourceReader.open(source);
                 java.sql.Connection positions = io.dpone.source.SourceConnections.open(source, "dpone-cdc-verify")) {
                java.nio.file.Path spool = v.outputDir() != null ? v.outputDir().resolve("spool")
                    : io.dpone.connect.EmbeddedDefaults.home().resolve("spool").resolve("cdc-verify");
                Map<String, Object> report = new io.dpone.cdc.verify.CdcVerifier(ch, rows, positions, spool).verify(
                    new io.dpone.cdc.verify.CdcVerifier.Options(new io.dpone.cdc.StreamIdentity(o.pipelineName(),
                        o.backend(), o.sourceSchema(), o.sourceTable(), o.targetDataset(), o.uniqueKeys()),
                        o.captureInstance(), stream.materialize().targetDataset(), v.buckets(), v.repair(),
                        null, 1_000_000, o.valuePolicies()), v.outputDir());
                verdict = String.valueOf(report.get("verdict"));
                mismatched = io.dpone.cdc.verify.CdcVerifier.mismatchedBuckets(report);
                if ("passed".equals(verdict) || "repaired".equals(verdict)) {
                    LOG.info("cdc stream {}: verification of {} {}", stream.name(),
                        stream.materialize().targetDataset(), verdict);
                } else {
                    LOG.warn("cdc stream {}: verification of {} {}: {} bucket(s) mismatched {}", stream.name(),
                        stream.materialize().targetDataset(), verdict, mismatched, Redactor.global().redact(
                            ((List<?>) report.get("blockers")).stream().map(b -> ((io.dpone.error.Blocker) b).code())
                                .toList().toString()));
                }
            }
        } catch (java.sql.SQLException | RuntimeException e) {
            LOG.error("cdc stream {}: verification: {}", stream.name(), Redactor.global().describe(e));
        }
        stats.verified(verdict, mismatched, (System.nanoTime() - now) / 1_000_000);
    }

    public CdcStreamStats stats() {
        return stats;
    }

    /** What this job was configured with. */
    public ServeConfig.CdcStream config() {
        return stream;
    }

    /**
     * The tick through the pod's camel context; with {@code approved_bundle}, only when the stream still matches the
     * approved bundle ({@link io.dpone.cdc.bundle.ApprovedBundle#require}, as {@code cdc-runtime-run
     * --require-approved-bundle}): else the tick is refused with the typed blockers ({@code cdc_bundle.not_approved},
     * {@code cdc_bundle.digest_drift} naming a drifted table, a failing check's), before anything is read.
     */
    private CdcRuntimeRunReport approvedThenRun(io.dpone.cdc.runtime.CdcTick tick) {
        if (stream.approvedBundle() != null) {
            try {
                io.dpone.cdc.bundle.ApprovedBundle.require(stream.approvedBundle(), tick.options(), context,
                    alias -> ConnectionReach.reach(context, alias, "sink_connection_id"), stream.schedule().every(),
                    serving(stream.materialize()));
            } catch (io.dpone.error.DponeException e) {
                return CdcTickRunner.refused(tick, e.blockers());
            }
        }
        return CdcTickRunner.run(camel, tick);
    }

    /** The bundle's view of the stream's materialization ({@code serving_target}); null without one. */
    private static io.dpone.cdc.bundle.ServingPlan serving(ServeConfig.Materialize m) {
        return m == null ? null : new io.dpone.cdc.bundle.ServingPlan(m.mode() == null ? null : m.mode().name(),
            m.deleteMode() == null ? null : m.deleteMode().name(), m.targetDataset(), m.tableTargets(),
            m.targetTemplate());
    }

    @Override
    public void process(Exchange exchange) {
        if (signal.stopping()) {
            return;
        }
        if (!locks.tryAcquire(stream.targetKey())) {
            stats.skipped();
            LOG.warn("cdc stream {}: serve.run_skipped_busy: a tick of the same target is in flight; skipped",
                stream.name());
            return;
        }
        java.util.UUID tickId = java.util.UUID.randomUUID();
        boolean told = false;
        try {
            observer.tickStarting(stream, tickId);
            // every mode (local file sink, local into ClickHouse, live SQL Server CDC / Change Tracking) runs its
            // tick through this pod's camel context, fenced like a CLI tick
            CdcRuntimeRunReport r = CdcRuntime.run(stream.options(), context, this::approvedThenRun);
            stats.record(r);
            told = true;
            observer.tickFinished(stream, tickId, r, null);
            int applied = r.counts() == null ? 0 : r.counts().applied();
            if (stream.materialize() != null && r.passed() && stream.options().multiTable()) {
                materializeTables(r, System.nanoTime());
            } else if (stream.materialize() != null && r.passed() && (applied > 0 || !materializedOnce)) {
                materialize(System.nanoTime());
            }
            if (r.passed()) {
                verifyWhenDue();
            }
            String line = "cdc stream {}: tick {} {}: read {}, applied {}, committed position {}";
            Object[] args = {stream.name(), r.runId(), stats.getLastStatus(), r.counts() == null ? 0 : r.counts().read(),
                applied, stats.getCommittedPosition()};
            if (!r.passed()) {
                LOG.warn(line + " " + Redactor.global().redact(r.blockers().stream().map(b -> b.code()).toList().toString()),
                    args);
            } else if (applied > 0) {
                LOG.info(line, args);
            } else {
                LOG.debug(line, args); // an idle tick: counted in JMX and metrics, not worth a log line per tick
            }
        } catch (RuntimeException e) {
            LOG.error("cdc stream {}: {}", stream.name(), Redactor.global().describe(e));
            if (!told) {
                observer.tickFinished(stream, tickId, null, e);
            }
        } finally {
            locks.release(stream.targetKey());
        }
    }
}
