package io.dpone.clickhouse.cdc;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The parts of a serving materialization's statements that the CDC materializers compose: a serving table's sort key,
 * a handed-over snapshot's rows as changes of the log, and the count of NULLs the rows to publish hold.
 */
public final class ServingSql {
    private ServingSql() {
    }

    /** {@code (k1, k2)} when the unique keys sort the table ({@code plain}), else the key-hash column. */
    public static String orderBy(boolean plain, List<String> keys, String hashColumn) {
        return plain ? "(" + ClickHouseSql.idList(keys) + ")" : ClickHouseSql.id(hashColumn);
    }

    /**
     * For each of {@code columns}, how many of the rows {@code latest} (a {@code SELECT}) selects hold NULL there; the
     * rows whose {@code operationColumn} is {@code delete} are left out unless it is null.
     */
    public static List<Long> nullCounts(ClickHouseEndpoint ch, String latest, List<String> columns,
                                        String operationColumn) {
        String counts = columns.stream().map(c -> "countIf(" + ClickHouseSql.id(c) + " IS NULL)")
            .collect(Collectors.joining(", "));
        return ch.query("SELECT " + counts + " FROM (" + latest + ")" + (operationColumn == null ? ""
            : " WHERE " + ClickHouseSql.id(operationColumn) + " != 'delete'")).get(0).stream().map(Long::parseLong)
            .toList();
    }

    /** {@code first UNION ALL second}. */
    public static String unionAll(String first, String second) {
        return first + " UNION ALL " + second;
    }

    /**
     * A handed-over snapshot table's rows as changes of operation {@code snapshot} at {@code position} with
     * {@code version}: each payload column cast to the log's type ({@code logTypes}; NULL where the snapshot lacks the
     * column), then the {@code metaColumns} the log carries (empty key hash, sequence 0, the commit time from the
     * snapshot's {@code __dpone__loaded_at} when it has one).
     */
    public static String snapshotRows(String database, String table, Collection<String> snapshotColumns,
                                      List<String> payload, Map<String, String> logTypes,
                                      Collection<String> metaColumns, String position, String version) {
        List<String> select = new ArrayList<>();
        for (String c : payload) {
            String type = ClickHouseSql.literal(logTypes.get(c));
            select.add((snapshotColumns.contains(c) ? "CAST(" + ClickHouseSql.id(c) + ", " + type + ")"
                : "CAST(NULL, " + type + ")") + " AS " + ClickHouseSql.id(c));
        }
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put("dpone_cdc_unique_key_hash", "''");
        meta.put("dpone_cdc_operation", "'snapshot'");
        meta.put("dpone_cdc_position", ClickHouseSql.literal(position));
        meta.put("dpone_cdc_sequence", "toUInt64(0)");
        meta.put("dpone_cdc_version", "toUInt256(" + ClickHouseSql.literal(version) + ")");
        meta.put("dpone_cdc_commit_time", snapshotColumns.contains("__dpone__loaded_at")
            ? "CAST(" + ClickHouseSql.id("__dpone__loaded_at") + ", 'DateTime64(3, \\'UTC\\')')"
            : "toDateTime64(0, 3, 'UTC')");
        for (String m : metaColumns) {
            select.add(meta.get(m) + " AS " + ClickHouseSql.id(m));
        }
        return "SELECT " + String.join(", ", select) + " FROM " + ClickHouseSql.table(database, table);
    }
}
