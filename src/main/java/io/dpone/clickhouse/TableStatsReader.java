package io.dpone.clickhouse;

import io.dpone.quality.TargetStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Computes {@link TargetStats} for a loaded table in one scan: row count, NULLs per column, the typed hash
 * (xxHash64 of each row's RowBinary bytes, summed with wrap-around) and the metadata-column checks.
 */
public final class TableStatsReader {
    private TableStatsReader() {
    }

    /**
     * {@code hashedColumns}: the columns that get a per-column typed hash (those a fidelity gate compares; the
     * row typed hash covers every column of {@code columns}).
     */
    public static TargetStats read(ClickHouseEndpoint ch, String database, String table, List<String> columns,
                                   List<String> hashedColumns, String runId, int sampleModulo,
                                   List<String> distinctColumns) {
        return query(ch, database, table, columns, hashedColumns, runId, sampleModulo, distinctColumns,
            metadataPresent(ch, database, table), "1");
    }

    /** Whether the table has all four metadata columns. */
    static boolean metadataPresent(ClickHouseEndpoint ch, String database, String table) {
        List<List<String>> present = ch.query("SELECT name FROM system.columns WHERE database = "
            + ClickHouseSql.literal(database) + " AND table = " + ClickHouseSql.literal(table));
        List<String> names = present.stream().map(r -> r.get(0)).toList();
        return names.containsAll(MetadataColumns.NAMES);
    }

    /** The stats of the rows matching {@code where} (a condition built from {@link ClickHouseSql} pieces). */
    static TargetStats query(ClickHouseEndpoint ch, String database, String table, List<String> columns,
                             List<String> hashedColumns, String runId, int sampleModulo,
                             List<String> distinctColumns, boolean metadataPresent, String where) {
        List<String> select = new ArrayList<>();
        select.add("count()");
        for (String c : columns) {
            select.add("countIf(" + ClickHouseSql.id(c) + " IS NULL)");
        }
        String filter = sampleModulo > 1 ? "h % " + sampleModulo + " = 0" : "1";
        select.add("sumIf(h, " + filter + ")");
        select.add("countIf(" + filter + ")");
        select.add(metadataPresent
            ? "countIf(" + ClickHouseSql.id(MetadataColumns.RUN_ID) + " != " + ClickHouseSql.literal(runId)
                + " OR " + ClickHouseSql.id(MetadataColumns.LOAD_ID) + " = ''"
                + " OR toYear(" + ClickHouseSql.id(MetadataColumns.LOADED_AT) + ") < 2000"
                + " OR toYear(" + ClickHouseSql.id(MetadataColumns.EXTRACTED_AT) + ") < 2000)"
            : "0");
        for (String c : hashedColumns) {
            select.add("sum(" + columnHash(c) + ")");
        }
        for (String c : distinctColumns) {
            select.add("uniqExact(" + columnHash(c) + ")");
        }
        String sql = "WITH xxHash64(formatRow('RowBinary', " + ClickHouseSql.idList(columns) + ")) AS h "
            + "SELECT " + String.join(", ", select) + " FROM " + ClickHouseSql.table(database, table)
            + " WHERE " + where;
        List<String> row = ch.query(sql).get(0);
        Map<String, Long> nulls = new LinkedHashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            nulls.put(columns.get(i), Long.parseLong(row.get(1 + i)));
        }
        int k = 1 + columns.size();
        Map<String, Long> columnHashes = new LinkedHashMap<>();
        for (int i = 0; i < hashedColumns.size(); i++) {
            columnHashes.put(hashedColumns.get(i), Long.parseUnsignedLong(row.get(k + 3 + i)));
        }
        Map<String, Long> distinct = new LinkedHashMap<>();
        for (int i = 0; i < distinctColumns.size(); i++) {
            distinct.put(distinctColumns.get(i), Long.parseLong(row.get(k + 3 + hashedColumns.size() + i)));
        }
        return new TargetStats(Long.parseLong(row.get(0)), nulls, Long.parseUnsignedLong(row.get(k)),
            Long.parseLong(row.get(k + 1)), metadataPresent, Long.parseLong(row.get(k + 2)), columnHashes, distinct);
    }

    /** The exact distinct counts of {@code columns} over the whole table, as {@link #read} computes them. */
    static Map<String, Long> distinctCounts(ClickHouseEndpoint ch, String database, String table,
                                            List<String> columns) {
        Map<String, Long> distinct = new LinkedHashMap<>();
        if (columns.isEmpty()) {
            return distinct;
        }
        List<String> row = ch.query("SELECT " + String.join(", ", columns.stream()
            .map(c -> "uniqExact(" + columnHash(c) + ")").toList()) + " FROM "
            + ClickHouseSql.table(database, table)).get(0);
        for (int i = 0; i < columns.size(); i++) {
            distinct.put(columns.get(i), Long.parseLong(row.get(i)));
        }
        return distinct;
    }

    /** xxHash64 of one column's own RowBinary bytes (NULL flag included), as the source side computes it. */
    private static String columnHash(String column) {
        return "xxHash64(formatRow('RowBinary', " + ClickHouseSql.id(column) + "))";
    }
}
