package io.dpone.cdc.clickhouse;

import io.dpone.cdc.CdcPosition;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rows a materialization takes the latest row per key from when the log continues a handed-over snapshot
 * ({@link CdcSnapshots}): the log's rows, and the snapshot table's rows as changes of operation {@code snapshot} at
 * the hand-over position P with the version {@code (P + 1) * 2^67 - 1}: above every change at or below P (which the
 * snapshot holds), below every change after it (which the stream replays). Snapshot rows carry an empty
 * {@code dpone_cdc_unique_key_hash}, so the latest row is chosen by the unique-key columns themselves, which must be
 * typed (a live stream's log is). Each snapshot column is cast to the log column's type; a log column the snapshot
 * lacks reads NULL.
 */
final class SnapshotMerge {
    private SnapshotMerge() {
    }

    /** The version of the snapshot's rows: just above every change at the hand-over position. */
    static BigInteger version(String position) {
        return CdcPosition.parse(position).orElseThrow(() -> new DponeException(new Blocker(
            CdcMaterializer.SNAPSHOT_UNUSABLE, "--cdc-dataset", "the recorded hand-over position is not a position",
            Map.of()))).value().add(BigInteger.ONE).shiftLeft(67).subtract(BigInteger.ONE);
    }

    /**
     * {@code SELECT carried FROM log WHERE ... UNION ALL SELECT <snapshot rows>}.
     *
     * @param logSelect the log side, {@code SELECT <carried> FROM <log> WHERE ...}
     * @param logTypes  the log's column types, as the materializer read them
     */
    static String rows(ClickHouseEndpoint ch, String logSelect, List<String> payload, Map<String, String> logTypes,
                       Map<String, String> carriedMeta, CdcSnapshots.Snapshot s, List<String> keys) {
        return logSelect + " UNION ALL " + snapshotRows(ch, payload, logTypes, carriedMeta, s, keys);
    }

    /**
     * {@code SELECT <snapshot rows>}: the snapshot table's rows as changes of operation {@code snapshot} at the
     * hand-over version, with the log's column types (the incremental materializer inserts them once).
     */
    static String snapshotRows(ClickHouseEndpoint ch, List<String> payload, Map<String, String> logTypes,
                               Map<String, String> carriedMeta, CdcSnapshots.Snapshot s, List<String> keys) {
        String[] snap = s.snapshotDataset().split("\\.", -1);
        if (snap.length != 2 || !ClickHouseSql.IDENTIFIER.matcher(snap[0]).matches()
            || !ClickHouseSql.IDENTIFIER.matcher(snap[1]).matches()) {
            throw unusable("the recorded snapshot dataset is not db.table");
        }
        Map<String, String> snapTypes = types(ch, snap[0], snap[1]);
        if (snapTypes.isEmpty()) {
            throw unusable("the snapshot table " + s.snapshotDataset() + " the log continues does not exist");
        }
        List<String> missingKeys = keys.stream().filter(k -> !snapTypes.containsKey(k)).toList();
        if (!missingKeys.isEmpty()) {
            throw unusable("the snapshot table lacks the unique-key column(s) " + missingKeys);
        }
        List<String> select = new ArrayList<>();
        for (String c : payload) {
            String type = ClickHouseSql.literal(logTypes.get(c));
            select.add((snapTypes.containsKey(c) ? "CAST(" + ClickHouseSql.id(c) + ", " + type + ")"
                : "CAST(NULL, " + type + ")") + " AS " + ClickHouseSql.id(c));
        }
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put("dpone_cdc_unique_key_hash", "''");
        meta.put("dpone_cdc_operation", "'snapshot'");
        meta.put("dpone_cdc_position", ClickHouseSql.literal(s.position()));
        meta.put("dpone_cdc_sequence", "toUInt64(0)");
        meta.put("dpone_cdc_version", "toUInt256(" + ClickHouseSql.literal(version(s.position()).toString()) + ")");
        meta.put("dpone_cdc_commit_time", snapTypes.containsKey("__dpone__loaded_at")
            ? "CAST(" + ClickHouseSql.id("__dpone__loaded_at") + ", 'DateTime64(3, \\'UTC\\')')"
            : "toDateTime64(0, 3, 'UTC')");
        for (String m : carriedMeta.keySet()) {
            select.add(meta.get(m) + " AS " + ClickHouseSql.id(m));
        }
        return "SELECT " + String.join(", ", select) + " FROM " + ClickHouseSql.table(snap[0], snap[1]);
    }

    private static Map<String, String> types(ClickHouseEndpoint ch, String db, String table) {
        Map<String, String> out = new LinkedHashMap<>();
        ch.query("SELECT name, type FROM system.columns WHERE database = " + ClickHouseSql.literal(db)
            + " AND table = " + ClickHouseSql.literal(table) + " ORDER BY position")
            .forEach(r -> out.put(r.get(0), r.get(1)));
        return out;
    }

    private static DponeException unusable(String message) {
        return new DponeException(new Blocker(CdcMaterializer.SNAPSHOT_UNUSABLE, "--cdc-dataset", message + "; "
            + "nothing was published", Map.of()));
    }
}
