package io.dpone.cdc.clickhouse;

import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.CdcHashes;
import io.dpone.cdc.CdcOffset;
import io.dpone.cdc.CdcOffsetStore;
import io.dpone.cdc.CheckpointRules;
import io.dpone.cdc.ConflictingCommit;
import io.dpone.cdc.StreamIdentity;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.error.DponeException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * CDC checkpoints in a ClickHouse table {@code db.table}: {@code ReplacingMergeTree(saved_version)} ordered by
 * {@code checkpoint_key}, one logical row per key, read with {@code argMax(..., saved_version)} so unmerged parts
 * never matter. The key is the stream's pipeline name: a pipeline has one checkpoint, and a checkpoint saved for
 * another identity under the same pipeline name (backend, source, target or unique keys differ) is refused on load
 * and on commit with {@code cdc_runtime.checkpoint_stream_mismatch}; a row that breaks {@link CheckpointRules} (its own
 * {@code stream_id} not its stream's id, an offset of another backend, a token of the wrong shape, a resume point
 * that is not a JSON object, a {@code saved_version} beyond a long) is {@code cdc_runtime.checkpoint_invalid} and never
 * overwritten, and so is a table whose columns are not the store's (one missing, or of another type). Each commit is a synchronous insert
 * ({@code async_insert = 0}) whose {@code saved_version} is above every version already stored for the key, checked
 * as a compare-and-set (see {@link #commit}).
 */
public final class ClickHouseOffsetStore implements CdcOffsetStore {
    public static final String SCHEMA = "dpone.cdc_checkpoint.v1";
    private static final DateTimeFormatter SAVED_AT =
        DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

    private final ClickHouseEndpoint ch;
    private final String database;
    private final String table;

    public ClickHouseOffsetStore(ClickHouseEndpoint ch, String database, String table) {
        ClickHouseSql.table(database, table);
        this.ch = ch;
        this.database = database;
        this.table = table;
    }

    private String subject() {
        return database + "." + table;
    }

    @Override
    public Optional<CdcOffset> load(StreamIdentity stream) {
        Optional<Row> row = latest(stream, tableState());
        if (row.isEmpty()) {
            return Optional.empty();
        }
        Row r = row.get();
        checkStream(stream, r);
        return Optional.of(offsetOf(stream, r));
    }

    /**
     * Compare-and-set in three statements, because a MergeTree table has no conditional insert: (1) the stored
     * offset must still be {@code expected}; (2) insert the new row with a version above every stored one and this
     * tick's {@code writer}; (3) read every row above the version seen in (1): exactly one, this writer's, or the
     * commit is a conflict. Two writers that pass (1) together both insert; whichever reads second sees the other's
     * row (or, after a background merge collapsed both, only the other's), so at most one of them is told it won
     * and neither wins silently. Either row points at a batch its writer applied before committing, so the kept
     * offset never skips an unapplied batch.
     */
    @Override
    public void commit(StreamIdentity stream, Optional<CdcOffset> expected, CdcOffset offset, String writer) {
        TableState state = tableState();
        // the stored row is checked before anything is written: a refused checkpoint's table is left as it is
        Optional<Row> previous = latest(stream, state);
        previous.ifPresent(r -> checkStream(stream, r));
        Optional<CdcOffset> current = previous.map(r -> offsetOf(stream, r));
        if (!current.equals(expected)) {
            throw ConflictingCommit.of(stream, subject(), current, expected);
        }
        long seen = previous.map(r -> r.version).orElse(0L);
        if (seen == Long.MAX_VALUE) {
            // no version above it: the insert would sort below the stored row and be a silent no-op left behind
            throw invalid(stream, "saved_version", "is at its maximum; no later checkpoint can be saved over it");
        }
        if (state != TableState.CURRENT) {
            ensureTable();
        }
        long version = Math.max(seen + 1, Instant.now().toEpochMilli() * 1000L);
        ch.execute(ClickHouseSql.insertRow(ClickHouseSql.table(database, table), List.of("checkpoint_key", "schema",
            "stream_id", "stream_json", "backend", "token", "snapshot_complete", "saved_at", "saved_version", "resume",
            "writer", "capture_instance"), "async_insert = 0", List.of(ClickHouseSql.literal(stream.pipelineName()),
                ClickHouseSql.literal(SCHEMA), ClickHouseSql.literal(stream.streamId()),
                ClickHouseSql.literal(CdcHashes.canonicalJson(stream.toMap())), ClickHouseSql.literal(offset.backend()),
                ClickHouseSql.literal(offset.token()), offset.snapshotComplete() ? "1" : "0",
                ClickHouseSql.literal(SAVED_AT.format(Instant.now())), Long.toString(version),
                ClickHouseSql.literal(offset.resume() == null ? "" : offset.resume()),
                ClickHouseSql.literal(writer),
                ClickHouseSql.literal(offset.captureInstance() == null ? "" : offset.captureInstance()))));
        List<List<String>> above = ch.query("SELECT writer FROM " + ClickHouseSql.table(database, table)
            + " WHERE checkpoint_key = " + ClickHouseSql.literal(stream.pipelineName()) + " AND saved_version > "
            + seen + " ORDER BY saved_version");
        List<String> others = above.stream().map(r -> r.get(0)).filter(w -> !w.equals(writer)).toList();
        if (others.size() > 0 || above.isEmpty()) {
            throw ConflictingCommit.concurrent(stream, subject(), others.isEmpty() ? "unknown" : others.get(0));
        }
    }

    /** The row's offset; {@code cdc_runtime.checkpoint_invalid}, naming the field, when it breaks the rules. */
    private CdcOffset offsetOf(StreamIdentity stream, Row r) {
        CdcOffset offset = new CdcOffset(r.backend, r.token, r.snapshotComplete, r.resume.isEmpty() ? null : r.resume,
            r.captureInstance.isEmpty() ? null : r.captureInstance);
        CheckpointRules.check(stream, offset).ifPresent(p -> {
            throw invalid(stream, p.field(), p.rule());
        });
        return offset;
    }

    private DponeException invalid(StreamIdentity stream, String field, String rule) {
        return new DponeException(CdcBlockers.blocker(CdcBlockers.CHECKPOINT_INVALID, subject(), "the checkpoint of "
            + "pipeline " + stream.pipelineName() + ": " + field + " " + rule + "; it was not used and not changed",
            Map.of("field", field)));
    }

    private void ensureTable() {
        ch.execute("CREATE DATABASE IF NOT EXISTS " + ClickHouseSql.id(database));
        ch.execute("CREATE TABLE IF NOT EXISTS " + ClickHouseSql.table(database, table) + " (checkpoint_key String, "
            + "schema String, stream_id String, stream_json String, backend String, token String, "
            + "snapshot_complete UInt8, saved_at DateTime64(3, 'UTC'), saved_version UInt64, resume String DEFAULT '', "
            + "writer String DEFAULT '', capture_instance String DEFAULT '') "
            + "ENGINE = ReplacingMergeTree(saved_version) ORDER BY checkpoint_key");
        // tables created before the resume column existed get it (empty = no resume point)
        ch.execute("ALTER TABLE " + ClickHouseSql.table(database, table)
            + " ADD COLUMN IF NOT EXISTS resume String DEFAULT ''");
        // and the writer column (the committing tick's run id, read back by the compare-and-set)
        ch.execute("ALTER TABLE " + ClickHouseSql.table(database, table)
            + " ADD COLUMN IF NOT EXISTS writer String DEFAULT ''");
        // and the capture instance (empty: the stream's configured one, as in every row written before it existed)
        ch.execute("ALTER TABLE " + ClickHouseSql.table(database, table)
            + " ADD COLUMN IF NOT EXISTS capture_instance String DEFAULT ''");
    }

    /** Whether the table exists, and whether it has the resume, writer and capture_instance columns (older tables lack them). */
    private enum TableState { ABSENT, WITHOUT_RESUME, WITHOUT_WRITER, WITHOUT_CAPTURE_INSTANCE, CURRENT }

    /** The columns the store reads and writes, with their types; resume, writer and capture_instance may be missing (older tables). */
    private static final Map<String, String> COLUMNS = columns();

    private static Map<String, String> columns() {
        Map<String, String> c = new LinkedHashMap<>();
        for (String name : List.of("checkpoint_key", "schema", "stream_id", "stream_json", "backend", "token",
            "resume", "writer", "capture_instance")) {
            c.put(name, "String");
        }
        c.put("snapshot_complete", "UInt8");
        c.put("saved_at", "DateTime64(3, 'UTC')");
        c.put("saved_version", "UInt64");
        return c;
    }

    /**
     * One query: every table has at least one column, so no column rows means no table. A table whose columns are
     * not the store's (one missing, or of another type: edited, or another program's table under this name) is
     * {@code cdc_runtime.checkpoint_invalid} and never written to; only the resume, writer and capture_instance columns of older
     * tables may be missing (a commit adds them).
     */
    private TableState tableState() {
        List<List<String>> rows = ch.query("SELECT name, type FROM system.columns WHERE database = "
            + ClickHouseSql.literal(database) + " AND table = " + ClickHouseSql.literal(table));
        if (rows.isEmpty()) {
            return TableState.ABSENT;
        }
        Map<String, String> found = new LinkedHashMap<>();
        rows.forEach(r -> found.put(r.get(0), r.get(1)));
        for (Map.Entry<String, String> c : COLUMNS.entrySet()) {
            String type = found.get(c.getKey());
            boolean optional = c.getKey().equals("resume") || c.getKey().equals("writer")
                || c.getKey().equals("capture_instance");
            if (type == null && !optional) {
                throw tableInvalid(c.getKey(), "is missing");
            }
            if (type != null && !type.equals(c.getValue())) {
                throw tableInvalid(c.getKey(), "has type " + type + ", not " + c.getValue());
            }
        }
        return !found.containsKey("resume") ? TableState.WITHOUT_RESUME
            : !found.containsKey("writer") ? TableState.WITHOUT_WRITER
            : !found.containsKey("capture_instance") ? TableState.WITHOUT_CAPTURE_INSTANCE : TableState.CURRENT;
    }

    private DponeException tableInvalid(String column, String problem) {
        return new DponeException(CdcBlockers.blocker(CdcBlockers.CHECKPOINT_INVALID, subject(), "the checkpoint "
            + "table's column " + column + " " + problem + "; the table was not used and not changed",
            Map.of("field", column)));
    }

    private Optional<Row> latest(StreamIdentity stream, TableState state) {
        if (state == TableState.ABSENT) {
            return Optional.empty();
        }
        boolean hasResume = state != TableState.WITHOUT_RESUME;
        boolean hasInstance = state == TableState.CURRENT;
        List<List<String>> rows = ch.query("SELECT argMax(stream_id, saved_version), argMax(stream_json, "
            + "saved_version), argMax(backend, saved_version), argMax(token, saved_version), "
            + "argMax(snapshot_complete, saved_version), max(saved_version), argMax(schema, saved_version), "
            + (hasResume ? "argMax(resume, saved_version)" : "''") + ", "
            + (hasInstance ? "argMax(capture_instance, saved_version)" : "''") + " FROM "
            + ClickHouseSql.table(database, table) + " WHERE checkpoint_key = "
            + ClickHouseSql.literal(stream.pipelineName()) + " HAVING count() > 0");
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        List<String> r = rows.get(0);
        if (!SCHEMA.equals(r.get(6))) {
            throw CdcBlockers.failure(CdcBlockers.CHECKPOINT_INVALID, subject(),
                "checkpoint of " + stream.pipelineName() + " is not a " + SCHEMA + " row");
        }
        long version;
        try {
            version = Long.parseLong(r.get(5));
        } catch (NumberFormatException e) {
            throw invalid(stream, "saved_version", "is beyond " + Long.MAX_VALUE);
        }
        if (!"0".equals(r.get(4)) && !"1".equals(r.get(4))) {
            throw invalid(stream, "snapshot_complete", "is neither 0 nor 1");
        }
        return Optional.of(new Row(r.get(0), r.get(1), r.get(2), r.get(3), "1".equals(r.get(4)), version, r.get(7),
            r.get(8)));
    }

    /**
     * The row's stream must be {@code stream}: other stream fields are {@code checkpoint_stream_mismatch}; the same
     * fields under another {@code stream_id} (a zeroed or edited id) are {@code checkpoint_invalid}.
     */
    private void checkStream(StreamIdentity stream, Row r) {
        if (!stream.streamId().equals(r.streamId) && CdcHashes.canonicalJson(stream.toMap()).equals(r.streamJson)) {
            throw invalid(stream, "stream_id", "is not the id of the checkpoint's stream");
        }
        if (!stream.streamId().equals(r.streamId)) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("checkpoint_stream_id", r.streamId);
            details.put("stream_id", stream.streamId());
            details.put("checkpoint_stream", r.streamJson);
            details.put("stream", stream.toMap());
            throw new DponeException(CdcBlockers.blocker(CdcBlockers.CHECKPOINT_STREAM_MISMATCH, subject(),
                "the checkpoint of pipeline " + stream.pipelineName() + " belongs to another stream; it was not used "
                    + "and not changed", details));
        }
    }

    private record Row(String streamId, String streamJson, String backend, String token, boolean snapshotComplete,
                       long version, String resume, String captureInstance) {
    }
}
