package io.dpone.cdc.clickhouse;

import io.dpone.cdc.clickhouse.CdcMaterializer.Compact;
import io.dpone.cdc.clickhouse.CdcMaterializer.DeleteMode;
import io.dpone.cdc.clickhouse.CdcMaterializer.Incremental;
import io.dpone.cdc.clickhouse.CdcMaterializer.Options;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.TableAdmin;
import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import io.dpone.source.SourceColumn;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

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
 */
final class IncrementalServing {
    static final String VERSIONS_SUFFIX = "__dpone_cdc_versions";
    static final String RESEED_SUFFIX = "__dpone_cdc_reseed";
    static final String STATE_TABLE = "dpone_cdc_materialized";
    static final String VERSIONS_MARKER = "dpone.cdc_versions.v1";
    /** The minmax skip index the log gets so a range above the applied version skips the older granules. */
    static final String LOG_VERSION_INDEX = "dpone_cdc_version_minmax";

    private static final String HASH = "dpone_cdc_unique_key_hash";
    private static final String OP = "dpone_cdc_operation";
    private static final String VERSION = "dpone_cdc_version";
    private static final String DELETED = "dpone_cdc_deleted";
    private static final String COMMIT_TIME = "dpone_cdc_commit_time";
    private static final String ROW = "dpone_cdc_row";

    /** The recorded state of one target. */
    record State(String versionsUuid, String appliedVersion, String snapshotRunId, String deleteMode,
                 long stateVersion) {
    }

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
    private final String logTable;
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
        String orderBy = ServingColumns.orderBy(storedTypes, o.uniqueKeys(), HASH);
        this.by = orderBy.equals(ClickHouseSql.id(HASH)) ? List.of(HASH) : o.uniqueKeys();
        this.versions = name(target[1] + VERSIONS_SUFFIX);
        this.logTable = ClickHouseSql.table(log[0], log[1]);
    }

    /** A derived table name; a target name too long to carry the suffix is refused. */
    static String name(String table) {
        if (!ClickHouseSql.IDENTIFIER.matcher(table).matches()) {
            throw new DponeException(new Blocker(CdcMaterializer.INVALID_ARGUMENT, "--target-dataset",
                "the target table name is too long for the materializer's derived tables (at most "
                    + (128 - RESEED_SUFFIX.length() - VERSIONS_SUFFIX.length()) + " characters)", Map.of()));
        }
        return table;
    }

    void run(Map<String, Object> report) {
        String view = servingView();
        var snapshot = new CdcSnapshots(ch, log[0]).of(o.cdcDataset());
        if (snapshot.isPresent() && by.equals(List.of(HASH))) {
            throw new DponeException(new Blocker(CdcMaterializer.SNAPSHOT_UNUSABLE, "--cdc-dataset", o.cdcDataset()
                + " continues a snapshot but its unique keys are not typed NOT NULL columns; nothing was published",
                Map.of()));
        }
        String snapshotRunId = snapshot.map(CdcSnapshots.Snapshot::runId).orElse("");
        ensureLogIndex();
        Optional<State> state = readState();
        String reseed = reseedReason(state, snapshotRunId);
        String from = reseed == null ? state.get().appliedVersion() : null;
        // one bound for the whole run: rows appended after this read wait for the next run
        List<String> stats = ch.query("SELECT count(), toString(max(" + ClickHouseSql.id(VERSION) + ")) FROM "
            + logTable + (from == null ? "" : " WHERE " + above(from))).get(0);
        long rowsIn = Long.parseLong(stats.get(0));
        String bound = rowsIn == 0 ? from : stats.get(1);
        int batches;
        if (reseed != null) {
            batches = reseed(snapshot, snapshotRunId, rowsIn == 0 ? null : bound, rowsIn);
        } else {
            batches = applyRange(versions, from, bound, rowsIn, state.get(), snapshotRunId);
        }
        String publish = publishView(view);
        Map<String, Object> partsAfter = new LinkedHashMap<>();
        Map<String, Object> compaction = compact(partsAfter);
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
     * {@code final} ({@code SELECT ... FINAL}, the default: measured many times faster on chDB, see
     * docs/performance.md) or {@code argmax} (group by key, {@code argMax} of the row).
     */
    private String servingView() {
        String v = settings.servingView() == null ? "auto" : settings.servingView();
        return switch (v) {
            case "auto", "final" -> "final";
            case "argmax" -> "argmax";
            default -> throw new DponeException(new Blocker(CdcMaterializer.INVALID_ARGUMENT, "--serving-view",
                "auto, final or argmax", Map.of()));
        };
    }

    private String above(String version) {
        return ClickHouseSql.id(VERSION) + " > toUInt256(" + ClickHouseSql.literal(version) + ")";
    }

    private String atMost(String version) {
        return ClickHouseSql.id(VERSION) + " <= toUInt256(" + ClickHouseSql.literal(version) + ")";
    }

    /**
     * The log is ordered by key hash, so a version range reads every granule unless a skip index says otherwise:
     * a minmax index on the version lets the parts written before the applied version be skipped (they are
     * appended in version order and merge mostly with parts of their own age). Added once, materialized once.
     */
    private void ensureLogIndex() {
        boolean present = !ch.query("SELECT 1 FROM system.data_skipping_indices WHERE database = "
            + ClickHouseSql.literal(log[0]) + " AND table = " + ClickHouseSql.literal(log[1]) + " AND name = "
            + ClickHouseSql.literal(LOG_VERSION_INDEX)).isEmpty();
        if (!present) {
            ch.execute("ALTER TABLE " + logTable + " ADD INDEX IF NOT EXISTS " + ClickHouseSql.id(LOG_VERSION_INDEX)
                + " " + ClickHouseSql.id(VERSION) + " TYPE minmax GRANULARITY 1");
            ch.execute("ALTER TABLE " + logTable + " MATERIALIZE INDEX " + ClickHouseSql.id(LOG_VERSION_INDEX)
                + " SETTINGS mutations_sync = 2");
        }
    }

    private String stateTable() {
        return ClickHouseSql.table(target[0], STATE_TABLE);
    }

    Optional<State> readState() {
        if (!admin.exists(target[0], STATE_TABLE)) {
            return Optional.empty();
        }
        stateTableReady = true;
        List<List<String>> rows = ch.query("SELECT argMax(versions_uuid, state_version), argMax(applied_version, "
            + "state_version), argMax(snapshot_run_id, state_version), argMax(delete_mode, state_version), "
            + "max(state_version) FROM " + stateTable()
            + " WHERE target_dataset = " + ClickHouseSql.literal(o.targetDataset()) + " HAVING count() > 0");
        return rows.isEmpty() ? Optional.empty() : Optional.of(new State(rows.get(0).get(0), rows.get(0).get(1),
            rows.get(0).get(2), rows.get(0).get(3), Long.parseLong(rows.get(0).get(4))));
    }

    /**
     * Records the applied version: a synchronous insert, made only after the rows up to it are durable. Its
     * {@code state_version} is above every one already stored for the target, so {@code argMax} reads it whatever
     * the parts' merge state.
     */
    private State commit(String uuid, String applied, String snapshotRunId, long previous) {
        if (!stateTableReady) {
            createStateTable();
            stateTableReady = true;
        }
        long version = Math.max(previous + 1, Instant.now().toEpochMilli() * 1000L);
        ch.execute(ClickHouseSql.insertRow(stateTable(), List.of("target_dataset", "cdc_dataset", "versions_uuid",
            "applied_version", "snapshot_run_id", "delete_mode", "updated_at", "state_version"), "async_insert = 0",
            List.of(ClickHouseSql.literal(o.targetDataset()), ClickHouseSql.literal(o.cdcDataset()),
                ClickHouseSql.literal(uuid), ClickHouseSql.literal(applied == null ? "" : applied),
                ClickHouseSql.literal(snapshotRunId), ClickHouseSql.literal(o.deleteMode().name()), "now64(3)",
                Long.toString(version))));
        return new State(uuid, applied, snapshotRunId, o.deleteMode().name(), version);
    }

    private void createStateTable() {
        ch.execute("CREATE TABLE IF NOT EXISTS " + stateTable() + " (target_dataset String, cdc_dataset String, "
            + "versions_uuid String, applied_version String, snapshot_run_id String, delete_mode String, "
            + "updated_at DateTime64(3, 'UTC'), state_version UInt64) ENGINE = ReplacingMergeTree(state_version) "
            + "ORDER BY target_dataset");
    }

    private String uuid(String table) {
        List<List<String>> rows = ch.query("SELECT toString(uuid) FROM system.tables WHERE database = "
            + ClickHouseSql.literal(target[0]) + " AND name = " + ClickHouseSql.literal(table));
        return rows.isEmpty() ? "" : rows.get(0).get(0);
    }

    /** Why the versioned table must be rebuilt from the whole log, or null when it continues from its state. */
    private String reseedReason(Optional<State> state, String snapshotRunId) {
        if (!admin.exists(target[0], versions)) {
            return "first_run";
        }
        if (!admin.comment(target[0], versions).orElse("").startsWith(VERSIONS_MARKER)) {
            throw new DponeException(new Blocker(CdcMaterializer.TARGET_NOT_OWNED, "--target-dataset",
                target[0] + "." + versions + " exists and was not created by the CDC materializer; it was not "
                    + "replaced", Map.of()));
        }
        if (state.isEmpty() || state.get().appliedVersion().isEmpty()
            || !state.get().versionsUuid().equals(uuid(versions))) {
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
        ch.query("SELECT name, type FROM system.columns WHERE database = " + ClickHouseSql.literal(target[0])
            + " AND table = " + ClickHouseSql.literal(versions) + " ORDER BY position")
            .forEach(r -> present.put(r.get(0), r.get(1)));
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
        List<String> defs = new ArrayList<>();
        storedColumns().forEach((c, t) -> defs.add(ClickHouseSql.id(c) + " " + t));
        ch.execute("CREATE TABLE " + ClickHouseSql.table(target[0], table) + " (" + String.join(", ", defs)
            // exclude_deleted: is_deleted = dpone_cdc_deleted, so FINAL drops a key whose latest change is a delete;
            // tombstone: no is_deleted, so FINAL keeps it (flagged). A change of delete mode rebuilds the table.
            + ") ENGINE = ReplacingMergeTree(" + ClickHouseSql.id(VERSION) + (o.deleteMode() == DeleteMode.tombstone
                ? "" : ", " + ClickHouseSql.id(DELETED)) + ") ORDER BY (" + ClickHouseSql.idList(by) + ") SETTINGS non_replicated_deduplication_window = 1000"
            + " COMMENT " + ClickHouseSql.literal(VERSIONS_MARKER + " source=" + o.cdcDataset() + " target="
                + o.targetDataset()));
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
        long previous = readState().map(State::stateVersion).orElse(0L);
        commit(uuid(versions), bound == null ? "0" : bound, snapshotRunId, previous);
        return batches;
    }

    /**
     * Applies {@code (from, bound]} in batches of about {@code batch_rows} log rows (a batch ends at a version
     * boundary, so the rows of one version never straddle two; {@code logRows} is the range's row count); with a
     * state, commits it after each batch.
     */
    private int applyRange(String table, String from, String bound, long logRows, State state,
                           String snapshotRunId) {
        if (bound == null || bound.equals(from)) {
            return 0;
        }
        String uuid = state == null ? null : uuid(table);
        String lo = from;
        int batches = 0;
        while (true) {
            // the usual tick fits one batch: no query for its end
            String hi = logRows <= settings.batchRows() ? bound : batchEnd(lo, bound);
            String where = (lo == null ? "" : above(lo) + " AND ") + atMost(hi) + " AND " + ClickHouseSql.id(OP)
                + " != 'update_before'";
            List<String> carried = new ArrayList<>(payload);
            carried.addAll(carriedMeta.keySet());
            String rows = "SELECT " + ClickHouseSql.idList(carried) + " FROM " + logTable + " WHERE " + where;
            insert(table, rows, true, (lo == null ? "0" : lo) + ":" + hi);
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

    /** The highest version of the first {@code batch_rows} rows above {@code lo}, or {@code bound}. */
    private String batchEnd(String lo, String bound) {
        List<List<String>> rows = ch.query("SELECT toString(max(" + ClickHouseSql.id(VERSION) + ")), count() FROM ("
            + "SELECT " + ClickHouseSql.id(VERSION) + " FROM " + logTable + " WHERE " + (lo == null ? ""
                : above(lo) + " AND ") + atMost(bound) + " ORDER BY " + ClickHouseSql.id(VERSION) + " LIMIT "
            + settings.batchRows() + ")");
        return Long.parseLong(rows.get(0).get(1)) < settings.batchRows() ? bound : rows.get(0).get(0);
    }

    /**
     * Inserts the latest row per key of {@code rows} (reduced before writing: fewer rows, fewer duplicates to
     * merge). NULLs in NOT NULL columns are refused first, as the rebuild refuses them.
     */
    private void insert(String table, String rows, boolean reduce, String token) {
        List<String> carried = new ArrayList<>(payload);
        carried.addAll(carriedMeta.keySet());
        String latest = reduce ? "SELECT " + ClickHouseSql.idList(carried) + " FROM (" + rows + ") ORDER BY "
            + ClickHouseSql.idList(by) + ", " + ClickHouseSql.id(VERSION) + " DESC LIMIT 1 BY "
            + ClickHouseSql.idList(by) : rows;
        ServingColumns.refuseNulls(ch, latest, servingTypes, o.deleteMode() == DeleteMode.tombstone, OP);
        List<String> insertColumns = new ArrayList<>(carried);
        insertColumns.add(DELETED);
        ch.execute("INSERT INTO " + ClickHouseSql.table(target[0], table) + " (" + ClickHouseSql.idList(insertColumns)
            + ") SELECT " + ClickHouseSql.idList(carried) + ", toUInt8(" + ClickHouseSql.id(OP) + " = 'delete') FROM ("
            + latest + ") SETTINGS async_insert = 0" + (token == null ? "" : ", insert_deduplicate = 1, "
                + "insert_deduplication_token = " + ClickHouseSql.literal(o.targetDataset() + ":" + token)));
    }

    /** The view's SELECT: the columns of the rebuild's table, in its order, with its types. */
    String viewSelect(String view) {
        boolean tombstone = o.deleteMode() == DeleteMode.tombstone;
        List<String> out = new ArrayList<>(payload);
        out.addAll(carriedMeta.keySet());
        if (tombstone) {
            out.add(DELETED);
        }
        String table = ClickHouseSql.table(target[0], versions);
        if (view.equals("final")) {
            // FINAL keeps the highest version per key and, in exclude_deleted mode, drops it when it is a delete
            // (is_deleted = 1); in tombstone mode the table has no is_deleted and the delete stays, flagged
            return "SELECT " + out.stream().map(this::servingExpression).collect(Collectors.joining(", ")) + " FROM "
                + table + " FINAL";
        }
        List<String> inRow = new ArrayList<>(out.stream().filter(c -> !by.contains(c)).toList());
        if (!tombstone) {
            inRow.add(DELETED);
        }
        List<String> select = new ArrayList<>();
        for (String c : out) {
            String e = by.contains(c) ? ClickHouseSql.id(c) : "tupleElement(" + ClickHouseSql.id(ROW) + ", "
                + (inRow.indexOf(c) + 1) + ")";
            select.add(servingCast(c, e) + " AS " + ClickHouseSql.id(c));
        }
        String inner = "SELECT " + ClickHouseSql.idList(by) + ", argMax(tuple(" + ClickHouseSql.idList(inRow) + "), "
            + ClickHouseSql.id(VERSION) + ") AS " + ClickHouseSql.id(ROW) + " FROM " + table + " GROUP BY "
            + ClickHouseSql.idList(by);
        return "SELECT " + String.join(", ", select) + " FROM (" + inner + ") AS " + ClickHouseSql.id(ROW + "s")
            + (tombstone ? ""
            : " WHERE tupleElement(" + ClickHouseSql.id(ROW) + ", " + (inRow.indexOf(DELETED) + 1) + ") = 0");
    }

    private String servingExpression(String c) {
        return servingCast(c, ClickHouseSql.id(c)) + " AS " + ClickHouseSql.id(c);
    }

    /**
     * Every column gets the rebuild's type (a view's header would otherwise drop {@code LowCardinality}, and a
     * column NOT NULL at the source is Nullable in the versioned table: its live rows were checked for NULLs).
     */
    private String servingCast(String c, String expression) {
        String type = servingTypes.containsKey(c) ? servingTypes.get(c) : c.equals(DELETED) ? "UInt8"
            : carriedMeta.get(c);
        return "CAST(" + expression + ", " + ClickHouseSql.literal(type) + ")";
    }

    /**
     * Publishes the view: {@code CREATE VIEW} when the target is missing, {@code CREATE OR REPLACE VIEW} over the
     * materializer's own view, {@code EXCHANGE} with the rebuild's table (which is then dropped).
     */
    private String publishView(String view) {
        String select = viewSelect(view);
        // the comment carries a digest of the view's query: an unchanged view is not replaced (one statement less
        // per run)
        String comment = CdcMaterializer.TARGET_MARKER + " source=" + o.cdcDataset() + " delete_mode="
            + o.deleteMode().name() + " mode=incremental view=" + io.dpone.cdc.CdcHashes.sha256Hex(select)
            .substring(0, 16);
        String body = " AS " + select + " COMMENT " + ClickHouseSql.literal(comment);
        List<List<String>> existing = ch.query("SELECT engine, comment FROM system.tables WHERE database = "
            + ClickHouseSql.literal(target[0]) + " AND name = " + ClickHouseSql.literal(target[1]));
        if (existing.isEmpty()) {
            ch.execute("CREATE VIEW " + ClickHouseSql.table(target[0], target[1]) + body);
            return "view_created";
        }
        if ("View".equals(existing.get(0).get(0))) {
            if (comment.equals(existing.get(0).get(1))) {
                return "view_unchanged";
            }
            ch.execute("CREATE OR REPLACE VIEW " + ClickHouseSql.table(target[0], target[1]) + body);
            return "view_replaced";
        }
        String stage = name(target[1] + CdcMaterializer.STAGE_SUFFIX);
        admin.drop(target[0], stage);
        ch.execute("CREATE VIEW " + ClickHouseSql.table(target[0], stage) + body);
        admin.exchange(target[0], stage, target[0], target[1]);
        admin.drop(target[0], stage);
        return "view_exchanged";
    }

    /** Active parts, rows stored (every version) and rows outside the largest part (the un-merged delta). */
    Map<String, Object> parts() {
        List<String> r = ch.query("SELECT count(), sum(rows), max(rows) FROM system.parts WHERE database = "
            + ClickHouseSql.literal(target[0]) + " AND table = " + ClickHouseSql.literal(versions) + " AND active")
            .get(0);
        long parts = Long.parseLong(r.get(0));
        long rows = parts == 0 ? 0 : Long.parseLong(r.get(1));
        long largest = parts == 0 ? 0 : Long.parseLong(r.get(2));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("active_parts", parts);
        m.put("rows_stored", rows);
        m.put("rows_outside_largest_part", rows - largest);
        return m;
    }

    /**
     * Background merges are not relied on: when the active parts exceed {@code compact_max_parts} or the rows
     * outside the largest part exceed {@code compact_max_unmerged_share} of the stored rows (or always, or never),
     * {@code OPTIMIZE TABLE ... FINAL} merges the versioned table, then keys whose latest change is a delete older
     * than the tombstone retention are purged (every row of the key, so no older version can resurface).
     */
    private Map<String, Object> compact(Map<String, Object> after) {
        Map<String, Object> before = parts();
        long partsBefore = (Long) before.get("active_parts");
        long rows = (Long) before.get("rows_stored");
        double share = rows == 0 ? 0 : (Long) before.get("rows_outside_largest_part") / (double) rows;
        String reason = switch (settings.compact()) {
            case never -> null;
            case always -> "always";
            case auto -> partsBefore > settings.compactMaxParts() ? "parts"
                : share > settings.compactMaxUnmergedShare() ? "unmerged_share" : null;
        };
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ran", reason != null);
        m.put("reason", reason);
        m.put("parts_before", partsBefore);
        m.put("unmerged_share_before", Math.round(share * 10000) / 10000.0);
        if (reason == null) {
            after.putAll(before);
            return m;
        }
        long t0 = System.nanoTime();
        ch.execute("OPTIMIZE TABLE " + ClickHouseSql.table(target[0], versions) + " FINAL");
        m.put("optimize_ms", (System.nanoTime() - t0) / 1_000_000);
        Map<String, Object> merged = parts();
        long purged = purge((Long) merged.get("active_parts") == 1);
        m.put("rows_purged", purged);
        after.putAll(purged > 0 ? parts() : merged);
        m.put("tombstone_retention", settings.tombstoneRetention() == null ? null
            : settings.tombstoneRetention().toString());
        m.put("millis", (System.nanoTime() - t0) / 1_000_000);
        return m;
    }

    /**
     * Purges the keys whose latest change is a delete older than the retention, every row of them. After a merge
     * into one part each key has one row, so a filter finds them (a scan of two columns); otherwise the keys are
     * found by {@code argMax} per key (a {@code GROUP BY} over the table: 48 s for 10M keys here).
     */
    private long purge(boolean onePart) {
        if (settings.tombstoneRetention() == null) {
            return 0;
        }
        String table = ClickHouseSql.table(target[0], versions);
        Instant cutoff = Instant.now().minus(settings.tombstoneRetention());
        String before = "toDateTime64(" + ClickHouseSql.literal(cutoff.toString().replace("T", " ").replace("Z", ""))
            + ", 3, 'UTC')";
        String where;
        if (onePart) {
            where = ClickHouseSql.id(DELETED) + " = 1 AND " + ClickHouseSql.id(COMMIT_TIME) + " < " + before;
        } else {
            where = "(" + ClickHouseSql.idList(by) + ") IN (SELECT " + ClickHouseSql.idList(by) + " FROM " + table
                + " GROUP BY " + ClickHouseSql.idList(by) + " HAVING argMax(" + ClickHouseSql.id(DELETED) + ", "
                + ClickHouseSql.id(VERSION) + ") = 1 AND argMax(" + ClickHouseSql.id(COMMIT_TIME) + ", "
                + ClickHouseSql.id(VERSION) + ") < " + before + ")";
        }
        long n = Long.parseLong(ch.query("SELECT count() FROM " + table + " WHERE " + where).get(0).get(0));
        if (n > 0) {
            ch.execute("ALTER TABLE " + table + " DELETE WHERE " + where + " SETTINGS mutations_sync = 2");
        }
        return n;
    }

    /** The rebuild publishes a table over the incremental view: the versioned table goes with it. */
    static void dropVersions(ClickHouseEndpoint ch, String[] target) {
        String versions = target[1] + VERSIONS_SUFFIX;
        if (ClickHouseSql.IDENTIFIER.matcher(versions).matches()) {
            TableAdmin admin = new TableAdmin(ch);
            if (admin.comment(target[0], versions).orElse("").startsWith(VERSIONS_MARKER)) {
                admin.drop(target[0], versions);
            }
        }
    }
}
