package io.dpone.cdc.clickhouse;

import io.dpone.cdc.CdcPosition;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.cdc.ServingSql;
import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import io.dpone.manifest.Identifier;
import java.math.BigInteger;
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
        return ServingSql.unionAll(logSelect, snapshotRows(ch, payload, logTypes, carriedMeta, s, keys));
    }

    /**
     * {@code SELECT <snapshot rows>}: the snapshot table's rows as changes of operation {@code snapshot} at the
     * hand-over version, with the log's column types (the incremental materializer inserts them once).
     */
    static String snapshotRows(ClickHouseEndpoint ch, List<String> payload, Map<String, String> logTypes,
                               Map<String, String> carriedMeta, CdcSnapshots.Snapshot s, List<String> keys) {
        String[] snap = s.snapshotDataset().split("\\.", -1);
        if (snap.length != 2 || !Identifier.valid(snap[0]) || !Identifier.valid(snap[1])) {
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
        return ServingSql.snapshotRows(snap[0], snap[1], snapTypes.keySet(), payload, logTypes, carriedMeta.keySet(),
            s.position(), version(s.position()).toString());
    }

    private static Map<String, String> types(ClickHouseEndpoint ch, String db, String table) {
        Map<String, String> out = new LinkedHashMap<>();
        ch.operations().columns(db, table).forEach(c -> out.put(c.name(), c.type()));
        return out;
    }

    private static DponeException unusable(String message) {
        return new DponeException(new Blocker(CdcMaterializer.SNAPSHOT_UNUSABLE, "--cdc-dataset", message + "; "
            + "nothing was published", Map.of()));
    }
}
