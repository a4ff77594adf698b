package io.dpone.cdc.bundle;

import io.dpone.cdc.StreamIdentity;
import io.dpone.cdc.bundle.Findings.Lane;
import io.dpone.cdc.clickhouse.ClickHouseCdcSinkApplier;
import io.dpone.cdc.clickhouse.ClickHouseOffsetStore;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.cdc.runtime.ClickHouseCdcAdapters;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseEndpoints;
import io.dpone.clickhouse.cdc.SinkGrants;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.Redactor;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The sink checks, read-only: {@code sink_privileges} (the sink alias's user may create, write, read and evolve the
 * logs and the offset store), per table {@code sink_log} (absent, or this table's log by its comment) and
 * {@code serving_target} ({@link ServingTargetCheck}), then {@code offset_store} (absent, or its checkpoint row
 * readable and this stream's).
 */
final class SinkChecks {
    /**
     * What the ticks run in the log and offset databases: {@code CREATE DATABASE IF NOT EXISTS}, {@code CREATE TABLE},
     * the inserts, the reads of the applied event ids and the checkpoint, and {@code ALTER TABLE ... ADD COLUMN} /
     * {@code MODIFY COLUMN} / {@code COMMENT COLUMN} when a log or the offset store gains or widens a column (a
     * widened log column's type and comment change in one {@code ALTER}).
     */
    static final List<String> PRIVILEGES = List.of("CREATE DATABASE", "CREATE TABLE", "INSERT", "SELECT",
        "ALTER ADD COLUMN", "ALTER MODIFY COLUMN", "ALTER COMMENT COLUMN");

    private final CdcRunOptions options;
    private final ConnectionContext context;
    private final Findings findings;
    private final ServingPlan serving;

    SinkChecks(CdcRunOptions options, ConnectionContext context, Findings findings, ServingPlan serving) {
        this.options = options;
        this.context = context;
        this.findings = findings;
        this.serving = serving;
    }

    void run() {
        ClickHouseEndpoint ch;
        try {
            ch = ClickHouseEndpoints.open(context.resolve(options.sinkConnectionId(), ConnectionType.CLICKHOUSE,
                "--sink-connection-id"));
        } catch (DponeException e) {
            notOpened(e.blockers().get(0).code());
            return;
        } catch (RuntimeException e) {
            notOpened(Redactor.global().describe(e));
            return;
        }
        try (ch) {
            privileges(ch);
            ServingTargetCheck servingTarget = new ServingTargetCheck(options, findings, serving);
            findings.eachLane(l -> {
                sinkLog(ch, l);
                servingTarget.check(ch, l);
            });
            offsetStore(ch);
        } catch (RuntimeException e) {
            findings.fail("sink_catalogue", "the sink's catalogue could not be read", List.of(Blocker.of(
                BlockerCode.CDC_BUNDLE_SINK_UNREACHABLE, "--sink-connection-id", Redactor.global().describe(e))));
        }
    }

    private void notOpened(String why) {
        findings.fail("offset_store", "sink alias " + options.sinkConnectionId() + " did not open", List.of(
            Blocker.of(BlockerCode.CDC_BUNDLE_SINK_UNREACHABLE, "--sink-connection-id", "sink alias '"
                + options.sinkConnectionId() + "' did not open: " + why)));
    }

    /** Every sink check skipped. */
    void skipAll(String why) {
        findings.skip("sink_privileges", why);
        findings.eachLane(l -> {
            findings.skip("sink_log", why);
            findings.skip(ServingTargetCheck.ID, why);
        });
        findings.skip("offset_store", why);
    }

    /** {@code sink_privileges}: {@link #PRIVILEGES} on each log database and the offset store's database. */
    void privileges(ClickHouseEndpoint ch) {
        Set<String> databases = new LinkedHashSet<>();
        findings.lanes.forEach(l -> databases.add(l.targetDataset().split("\\.", 2)[0]));
        databases.add(options.targetDatabase());
        SinkGrants grants = new SinkGrants(ch);
        Map<String, List<String>> missing = new LinkedHashMap<>();
        for (String db : databases) {
            for (String p : PRIVILEGES) {
                Optional<Boolean> held = grants.granted(p, db);
                if (held.isEmpty()) {
                    findings.skip("sink_privileges", "the sink does not answer CHECK GRANT (an older ClickHouse): "
                        + "the sink alias's privileges are not checked; SHOW GRANTS lists them");
                    return;
                }
                if (!held.get()) {
                    missing.computeIfAbsent(db, k -> new ArrayList<>()).add(p);
                }
            }
        }
        if (missing.isEmpty()) {
            findings.pass("sink_privileges", "the sink alias's user holds " + String.join(", ", PRIVILEGES) + " on "
                + String.join(", ", databases.stream().map(d -> d + ".*").toList()));
            return;
        }
        List<Blocker> found = new ArrayList<>();
        missing.forEach((db, privileges) -> {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("database", db);
            details.put("missing", privileges);
            found.add(Blocker.of(BlockerCode.CDC_BUNDLE_SINK_PRIVILEGE_MISSING, "--sink-connection-id",
                "the sink alias's user lacks " + String.join(", ", privileges) + " on " + db + ".*, which the "
                    + "ticks need for the " + (db.equals(options.targetDatabase()) ? "CDC log and offset store"
                    : "CDC log") + "; grant them (GRANT " + String.join(", ", privileges) + " ON " + db
                    + ".* TO ...)", details));
        });
        findings.fail("sink_privileges", "the sink alias's user lacks privileges on " + String.join(", ",
            missing.keySet()), found);
    }

    /** {@code sink_log}: the table's log does not exist yet (the first tick creates it) or is this table's. */
    private void sinkLog(ClickHouseEndpoint ch, Lane l) {
        String[] dataset = l.targetDataset().split("\\.", 2);
        var table = ch.operations().table(dataset[0], dataset[1]);
        if (table.isEmpty()) {
            findings.pass("sink_log", l.targetDataset() + " does not exist yet: the first tick that reads a change "
                + "creates it");
            return;
        }
        StreamIdentity identity = new StreamIdentity(options.pipelineName(), options.backend(), l.schema(),
            l.table(), l.targetDataset(), l.uniqueKeys());
        // the comment ClickHouseCdcSinkApplier writes on a log it creates, and checks before every apply
        String expected = ClickHouseCdcSinkApplier.LOG_SCHEMA + " stream_id=" + identity.streamId();
        String comment = table.get().comment() == null ? "" : table.get().comment();
        if (comment.equals(expected)) {
            findings.pass("sink_log", l.targetDataset() + " is the CDC log of " + l.name() + " in this stream");
            return;
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("target_dataset", l.targetDataset());
        details.put("stream_id", identity.streamId());
        String other = comment.startsWith(ClickHouseCdcSinkApplier.LOG_SCHEMA + " stream_id=")
            ? "the CDC log of another stream (pipeline, backend, table or keys differ)" : "not a dpone CDC log";
        findings.fail("sink_log", l.targetDataset() + " is " + other, List.of(Blocker.of(
            BlockerCode.CDC_BUNDLE_SINK_LOG_MISMATCH, l.logOption(), l.targetDataset() + " exists and is " + other
                + ": a tick would apply nothing to it; name another log, or drop it if it is an abandoned stream's",
            details)));
    }

    /** {@code offset_store}: no checkpoint yet, or the stream's checkpoint row reads and belongs to this stream. */
    private void offsetStore(ClickHouseEndpoint ch) {
        String where = options.targetDatabase() + "." + ClickHouseCdcAdapters.OFFSETS_TABLE;
        try {
            var offset = new ClickHouseOffsetStore(ch, options.targetDatabase(), ClickHouseCdcAdapters.OFFSETS_TABLE)
                .load(options.stream());
            findings.pass("offset_store", offset.isEmpty() ? where + " holds no checkpoint of pipeline "
                + options.pipelineName() + ": the first tick reads from the start of each capture"
                : where + " holds this stream's checkpoint (" + offset.get().backend() + " " + offset.get().token()
                    + ")");
        } catch (DponeException e) {
            findings.fail("offset_store", where + " holds a checkpoint the tick would refuse", e.blockers());
        }
    }
}
