package io.dpone.cdc.clickhouse;

import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.CdcHashes;
import io.dpone.cdc.CdcOffset;
import io.dpone.cdc.CdcOffsetStore;
import io.dpone.cdc.CheckpointRules;
import io.dpone.cdc.ConflictingCommit;
import io.dpone.cdc.StreamIdentity;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.cdc.CheckpointRows;
import io.dpone.clickhouse.cdc.CheckpointTable;
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

    private final String database;
    private final String table;
    private final CheckpointTable checkpoints;
    private final CheckpointRows rows;

    public ClickHouseOffsetStore(ClickHouseEndpoint ch, String database, String table) {
        this.checkpoints = new CheckpointTable(ch, database, table);
        this.rows = new CheckpointRows(ch, database, table);
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
        rows.insert(new CheckpointRows.Checkpoint(stream.pipelineName(), SCHEMA, stream.streamId(),
            CdcHashes.canonicalJson(stream.toMap()), offset.backend(), offset.token(), offset.snapshotComplete(),
            SAVED_AT.format(Instant.now()), version, offset.resume() == null ? "" : offset.resume(), writer,
            offset.captureInstance() == null ? "" : offset.captureInstance()));
        List<String> above = rows.writersAbove(stream.pipelineName(), seen);
        List<String> others = above.stream().filter(w -> !w.equals(writer)).toList();
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

    /**
     * Creates the table when missing; a table created before the resume column (empty: no resume point), the writer
     * column (the committing tick's run id, read back by the compare-and-set) or the capture instance (empty: the
     * stream's configured one, as in every row written before it existed) existed gets them.
     */
    private void ensureTable() {
        checkpoints.ensure();
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
        Map<String, String> found = checkpoints.columns();
        if (found.isEmpty()) {
            return TableState.ABSENT;
        }
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
        Optional<CheckpointRows.Stored> stored = rows.latest(stream.pipelineName(), hasResume, hasInstance);
        if (stored.isEmpty()) {
            return Optional.empty();
        }
        CheckpointRows.Stored r = stored.get();
        if (!SCHEMA.equals(r.schema())) {
            throw CdcBlockers.failure(CdcBlockers.CHECKPOINT_INVALID, subject(),
                "checkpoint of " + stream.pipelineName() + " is not a " + SCHEMA + " row");
        }
        long version;
        try {
            version = Long.parseLong(r.savedVersion());
        } catch (NumberFormatException e) {
            throw invalid(stream, "saved_version", "is beyond " + Long.MAX_VALUE);
        }
        if (!"0".equals(r.snapshotComplete()) && !"1".equals(r.snapshotComplete())) {
            throw invalid(stream, "snapshot_complete", "is neither 0 nor 1");
        }
        return Optional.of(new Row(r.streamId(), r.streamJson(), r.backend(), r.token(),
            "1".equals(r.snapshotComplete()), version, r.resume(), r.captureInstance()));
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
