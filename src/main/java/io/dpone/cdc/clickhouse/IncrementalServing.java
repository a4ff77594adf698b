package io.dpone.cdc.clickhouse;

import static io.dpone.clickhouse.cdc.VersionedColumns.DELETED;
import static io.dpone.clickhouse.cdc.VersionedColumns.KEY_HASH;
import static io.dpone.clickhouse.cdc.VersionedColumns.OPERATION;

import io.dpone.cdc.clickhouse.CdcMaterializer.DeleteMode;
import io.dpone.cdc.clickhouse.CdcMaterializer.Incremental;
import io.dpone.cdc.clickhouse.CdcMaterializer.Options;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.TableAdmin;
import io.dpone.clickhouse.cdc.LogVersions;
import io.dpone.clickhouse.cdc.ServingState;
import io.dpone.clickhouse.cdc.ServingView;
import io.dpone.clickhouse.cdc.VersionedTable;
import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import io.dpone.manifest.Identifier;
import io.dpone.source.SourceColumn;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code --mode incremental}: applies only the log rows above the last applied version into a versioned table
 * {@code <target>__dpone_cdc_versions} ({@code ReplacingMergeTree(dpone_cdc_version, dpone_cdc_deleted)} ordered by
 * the unique keys), one version range ("batch") at a time, and serves {@code <target>} as a view that gives the
 * latest row per key with the delete mode applied, correct whether or not the table's parts have merged.
 *
 * <p>The applied version lives in {@code <target db>.dpone_cdc_materialized} ({@code ReplacingMergeTree} ordered by
 * the target, read with {@code argMax}), written by a synchronous insert only after the batch's insert returned; a
 * run killed in between re-applies the same range, which changes nothing (same rows, same versions, and the same
 * insert deduplication token). The state row also names the versioned table's UUID and the handed-over snapshot's
 * run: when either no longer matches (table dropped or replaced, a new hand-over, other columns or keys) the
 * versioned table is rebuilt from the whole log in a staging table and swapped in by {@code EXCHANGE}.
 *
 * <p>This class decides what to do when; the statements are {@code io.dpone.clickhouse.cdc}'s ({@link LogVersions},
 * {@link VersionedTable}, {@link ServingState}); the view is {@link IncrementalView}'s, the compaction
 * {@link IncrementalCompaction}'s.
 */
final class IncrementalServing {
    static final String VERSIONS_SUFFIX = "__dpone_cdc_versions";
    static final String RESEED_SUFFIX = "__dpone_cdc_reseed";
    static final String STATE_TABLE = ServingState.TABLE;
    static final String VERSIONS_MARKER = "dpone.cdc_versions.v1";

    private final ClickHouseEndpoint ch;
    private final TableAdmin admin;
    private final Options o;
    private final Incremental settings;
    private final String[] log;
    private final String[] target;
    private final List<String> payload;
    private final Map<String, String> logTypes;
    private final Map<String, String> carriedMeta;
    /** Versioned table types: the tombstone types (a delete row carries only its keys). */
    private final Map<String, String> storedTypes;
    /** The serving types of the delete mode (as the rebuild publishes them). */
    private final Map<String, String> servingTypes;
    /** What identifies a key: the unique keys when none is Nullable, else the key hash. */
    private final List<String> by;
    private final String versions;
    private final LogVersions logVersions;
    private final VersionedTable versioned;
    private final ServingState states;
    /** Tests: runs after a batch's insert, before its state is committed (a kill there). */
    private final Runnable afterInsert;
    /** Whether the state table is known to exist (read or created in this run). */
    private boolean stateTableReady;

    IncrementalServing(ClickHouseEndpoint ch, Options o, String[] log, String[] target, List<String> payload,
                       Map<String, SourceColumn> typed, Map<String, String> logTypes, Map<String, String> carriedMeta,
                       Runnable afterInsert) {
        this.ch = ch;
        this.afterInsert = afterInsert;
        this.admin = new TableAdmin(ch);
        this.o = o;
        this.settings = o.incremental();
        this.log = log;
        this.target = target;
        this.payload = payload;
        this.logTypes = logTypes;
        this.carriedMeta = carriedMeta;
        this.storedTypes = ServingColumns.types(payload, typed, o.uniqueKeys(), true);
        this.servingTypes = ServingColumns.types(payload, typed, o.uniqueKeys(),
            o.deleteMode() == DeleteMode.tombstone);
        this.by = ServingColumns.plainKeys(storedTypes, o.uniqueKeys()) ? o.uniqueKeys() : List.of(KEY_HASH);
        this.versions = name(target[1] + VERSIONS_SUFFIX);
        this.logVersions = new LogVersions(ch, log[0], log[1]);
        this.versioned = new VersionedTable(ch, target[0]);
        this.states = new ServingState(ch, target[0]);
    }

    /** A derived table name; a target name too long to carry the suffix is refused. */
    static String name(String table) {
        if (!Identifier.valid(table)) {
            throw new DponeException(new Blocker(CdcMaterializer.INVALID_ARGUMENT, "--target-dataset",
                "the target table name is too long for the materializer's derived tables (at most "
                    + (128 - RESEED_SUFFIX.length() - VERSIONS_SUFFIX.length()) + " characters)", Map.of()));
        }
        return table;
    }

    void run(Map<String, Object> report) {
        boolean useFinal = IncrementalView.useFinal(settings);
        String view = useFinal ? "final" : "argmax";
        var snapshot = new CdcSnapshots(ch, log[0]).of(o.cdcDataset());
        if (snapshot.isPresent() && by.equals(List.of(KEY_HASH))) {
            throw new DponeException(new Blocker(CdcMaterializer.SNAPSHOT_UNUSABLE, "--cdc-dataset", o.cdcDataset()
                + " continues a snapshot but its unique keys are not typed NOT NULL columns; nothing was published",
                Map.of()));
        }
        String snapshotRunId = snapshot.map(CdcSnapshots.Snapshot::runId).orElse("");
        ensureLogIndex();
        Optional<ServingState.Row> state = readState();
        String reseed = reseedReason(state, snapshotRunId);
        String from = reseed == null ? state.get().appliedVersion() : null;
        // one bound for the whole run: rows appended after this read wait for the next run
        LogVersions.Range range = logVersions.above(from);
        long rowsIn = range.rows();
        String bound = rowsIn == 0 ? from : range.max();
        int batches;
        if (reseed != null) {
            batches = reseed(snapshot, snapshotRunId, rowsIn == 0 ? null : bound, rowsIn);
        } else {
            batches = applyRange(versions, from, bound, rowsIn, state.get(), snapshotRunId);
        }
        String publish = new IncrementalView(ch, o, target, viewSource()).publish(useFinal);
        Map<String, Object> partsAfter = new LinkedHashMap<>();
        Map<String, Object> compaction = new IncrementalCompaction(ch, target[0], versions, by, settings)
            .run(partsAfter);
        report.put("mode", "incremental");
        report.put("rows_in", rowsIn);
        report.put("batches", batches);
        Map<String, Object> applied = new LinkedHashMap<>();
        applied.put("from", from);
        applied.put("to", bound);
        report.put("applied_version", applied);
        report.put("reseed", reseed);
        report.put("versions_table", target[0] + "." + versions);
        report.put("serving_view", view);
        report.put("payload_columns", payload);
        report.put("column_types", servingTypes);
        report.put("compaction", compaction);
        report.put("parts", partsAfter);
        snapshot.ifPresent(s -> report.put("snapshot", Map.of("dataset", s.snapshotDataset(), "position",
            s.position(), "run_id", s.runId())));
        report.put("publish", publish);
    }

    /**
     * The log is ordered by key hash, so a version range reads every granule unless a skip index says otherwise:
     * a minmax index on the version lets the parts written before the applied version be skipped (they are
     * appended in version order and merge mostly with parts of their own age). Added once, materialized once.
     */
    private void ensureLogIndex() {
        if (!logVersions.hasVersionIndex()) {
            logVersions.addVersionIndex();
        }
    }

    Optional<ServingState.Row> readState() {
        if (!admin.exists(target[0], STATE_TABLE)) {
            return Optional.empty();
        }
        stateTableReady = true;
        return states.latest(o.targetDataset());
    }

    /**
     * Records the applied version: a synchronous insert, made only after the rows up to it are durable. Its
     * {@code state_version} is above every one already stored for the target, so {@code argMax} reads it whatever
     * the parts' merge state.
     */
    private ServingState.Row commit(String uuid, String applied, String snapshotRunId, long previous) {
        if (!stateTableReady) {
            states.create();
            stateTableReady = true;
        }
        long version = Math.max(previous + 1, Instant.now().toEpochMilli() * 1000L);
        ServingState.Row row = new ServingState.Row(uuid, applied, snapshotRunId, o.deleteMode().name(), version);
        states.record(o.targetDataset(), o.cdcDataset(), row);
        return row;
    }

    /** Why the versioned table must be rebuilt from the whole log, or null when it continues from its state. */
    private String reseedReason(Optional<ServingState.Row> state, String snapshotRunId) {
        if (!admin.exists(target[0], versions)) {
            return "first_run";
        }
        if (!admin.comment(target[0], versions).orElse("").startsWith(VERSIONS_MARKER)) {
            throw new DponeException(new Blocker(CdcMaterializer.TARGET_NOT_OWNED, "--target-dataset",
                target[0] + "." + versions + " exists and was not created by the CDC materializer; it was not "
                    + "replaced", Map.of()));
        }
        if (state.isEmpty() || state.get().appliedVersion().isEmpty()
            || !state.get().versionsUuid().equals(versioned.uuid(versions))) {
            return "state_mismatch";
        }
        if (!state.get().snapshotRunId().equals(snapshotRunId)) {
            return "snapshot_changed";
        }
        if (!state.get().deleteMode().equals(o.deleteMode().name())) {
            // the NOT NULL checks of the applied rows were the other mode's
            return "delete_mode_changed";
        }
        Map<String, String> present = new LinkedHashMap<>();
        ch.operations().columns(target[0], versions).forEach(c -> present.put(c.name(), c.type()));
        String sorting = admin.sortingKey(target[0], versions).orElse("");
        if (!present.equals(storedColumns()) || !sorting.replaceAll("[`() ]", "").equals(String.join(",", by))) {
            return "columns_changed";
        }
        return null;
    }

    private Map<String, String> storedColumns() {
        Map<String, String> cols = new LinkedHashMap<>(storedTypes);
        cols.putAll(carriedMeta);
        cols.put(DELETED, "UInt8");
        return cols;
    }

    private void createVersions(String table) {
        // exclude_deleted: is_deleted = dpone_cdc_deleted, so FINAL drops a key whose latest change is a delete;
        // tombstone: no is_deleted, so FINAL keeps it (flagged). A change of delete mode rebuilds the table.
        versioned.create(table, storedColumns(), by, o.deleteMode() != DeleteMode.tombstone,
            VERSIONS_MARKER + " source=" + o.cdcDataset() + " target=" + o.targetDataset());
    }

    /**
     * Builds a fresh versioned table (the snapshot's rows, then the log up to {@code bound}) under a staging name,
     * swaps it in, drops the old one and records the state; a run killed before the record leaves a state that
     * does not name the table, so the next run rebuilds again.
     */
    private int reseed(Optional<CdcSnapshots.Snapshot> snapshot, String snapshotRunId, String bound, long logRows) {
        String stage = name(target[1] + RESEED_SUFFIX);
        admin.drop(target[0], stage);
        createVersions(stage);
        if (snapshot.isPresent()) {
            String rows = SnapshotMerge.snapshotRows(ch, payload, logTypes, carriedMeta, snapshot.get(),
                o.uniqueKeys());
            insert(stage, rows, false, null);
        }
        int batches = bound == null ? 0 : applyRange(stage, null, bound, logRows, null, snapshotRunId);
        if (admin.exists(target[0], versions)) {
            admin.exchange(target[0], stage, target[0], versions);
            admin.drop(target[0], stage);
        } else {
            admin.rename(target[0], stage, target[0], versions);
        }
        long previous = readState().map(ServingState.Row::stateVersion).orElse(0L);
        commit(versioned.uuid(versions), bound == null ? "0" : bound, snapshotRunId, previous);
        return batches;
    }

    /**
     * Applies {@code (from, bound]} in batches of about {@code batch_rows} log rows (a batch ends at a version
     * boundary, so the rows of one version never straddle two; {@code logRows} is the range's row count); with a
     * state, commits it after each batch.
     */
    private int applyRange(String table, String from, String bound, long logRows, ServingState.Row state,
                           String snapshotRunId) {
        if (bound == null || bound.equals(from)) {
            return 0;
        }
        String uuid = state == null ? null : versioned.uuid(table);
        String lo = from;
        int batches = 0;
        while (true) {
            // the usual tick fits one batch: no query for its end
            String hi = logRows <= settings.batchRows() ? bound : logVersions.batchEnd(lo, bound, settings.batchRows());
            insert(table, logVersions.rows(carried(), lo, hi), true, (lo == null ? "0" : lo) + ":" + hi);
            batches++;
            if (afterInsert != null) {
                afterInsert.run();
            }
            if (state != null) {
                state = commit(uuid, hi, snapshotRunId, state.stateVersion());
            }
            if (hi.equals(bound)) {
                return batches;
            }
            lo = hi;
        }
    }

    /**
     * Inserts the latest row per key of {@code rows} (reduced before writing: fewer rows, fewer duplicates to
     * merge). NULLs in NOT NULL columns are refused first, as the rebuild refuses them.
     */
    private void insert(String table, String rows, boolean reduce, String token) {
        List<String> carried = carried();
        String latest = reduce ? VersionedTable.latest(rows, carried, by) : rows;
        ServingColumns.refuseNulls(ch, latest, servingTypes, o.deleteMode() == DeleteMode.tombstone, OPERATION);
        versioned.insert(table, carried, latest, token == null ? null : o.targetDataset() + ":" + token);
    }

    /** The payload columns, then the log's metadata columns the versioned table carries. */
    private List<String> carried() {
        List<String> carried = new ArrayList<>(payload);
        carried.addAll(carriedMeta.keySet());
        return carried;
    }

    /** What the view reads: the columns of the rebuild's table, in its order, with its types. */
    private ServingView.Source viewSource() {
        boolean tombstone = o.deleteMode() == DeleteMode.tombstone;
        List<String> out = carried();
        if (tombstone) {
            out.add(DELETED);
        }
        // every column gets the rebuild's type (a view's header would otherwise drop LowCardinality, and a column
        // NOT NULL at the source is Nullable in the versioned table: its live rows were checked for NULLs)
        Map<String, String> types = new LinkedHashMap<>(carriedMeta);
        types.put(DELETED, "UInt8");
        types.putAll(servingTypes);
        return new ServingView.Source(target[0], versions, out, types, by, tombstone);
    }

    /** The rebuild publishes a table over the incremental view: the versioned table goes with it. */
    static void dropVersions(ClickHouseEndpoint ch, String[] target) {
        String versions = target[1] + VERSIONS_SUFFIX;
        if (Identifier.valid(versions)) {
            TableAdmin admin = new TableAdmin(ch);
            if (admin.comment(target[0], versions).orElse("").startsWith(VERSIONS_MARKER)) {
                admin.drop(target[0], versions);
            }
        }
    }
}
