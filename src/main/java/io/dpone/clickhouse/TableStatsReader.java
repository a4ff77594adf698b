package io.dpone.clickhouse;

import io.dpone.quality.TargetStats;
import io.dpone.quality.TypedRowHasher;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Computes {@link TargetStats} for a loaded table: in one scan the row count, NULLs per column, the typed hash
 * (as {@link TypedRowHasher} defines it, summed with wrap-around) and the metadata-column checks; the distinct
 * counts in a second read ({@link #distinctCounts}), the one place they are computed.
 */
public final class TableStatsReader {
    /** Types whose distinct values are exactly their distinct RowBinary bytes (no NULL flag, no float). */
    private static final Pattern ONE_TO_ONE = Pattern.compile("(U?Int\\d+|String|FixedString\\(\\d+\\)|Date|Date32"
        + "|DateTime|DateTime64\\(.*\\)|Decimal\\(\\d+, \\d+\\)|UUID|Bool)");

    private TableStatsReader() {
    }

    /**
     * {@code hashedColumns}: the columns that get a per-column typed hash (those a fidelity gate compares; the
     * row typed hash covers every column of {@code columns}).
     */
    public static TargetStats read(ClickHouseEndpoint ch, String database, String table, List<String> columns,
                                   List<String> hashedColumns, String runId, int sampleModulo,
                                   List<String> distinctColumns) {
        return scan(ch, database, table, columns, hashedColumns, runId, sampleModulo,
            metadataPresent(ch, database, table), "1", List.of()).stats()
            .withDistinctCounts(distinctCounts(ch, database, table, distinctColumns));
    }

    /** Whether the table has all four metadata columns. */
    static boolean metadataPresent(ClickHouseEndpoint ch, String database, String table) {
        List<String> names = ch.operations().columns(database, table).stream()
            .map(ClickHouseOperations.Column::name).toList();
        return names.containsAll(MetadataColumns.NAMES);
    }

    /** What one scan read: the additive stats and the values of the extra aggregates, as ClickHouse printed them. */
    record Scan(TargetStats stats, List<String> extra) {
        Scan {
            extra = List.copyOf(extra);
        }
    }

    /**
     * The additive stats (no distinct counts) of the rows matching {@code where} (a condition built from
     * {@link ClickHouseSql} pieces), with {@code extraAggregates} (aggregate expressions built from the same pieces,
     * e.g. a sort-key column's {@code min}) computed in the same statement, so the rows are read once for both.
     */
    static Scan scan(ClickHouseEndpoint ch, String database, String table, List<String> columns,
                     List<String> hashedColumns, String runId, int sampleModulo, boolean metadataPresent,
                     String where, List<String> extraAggregates) {
        List<String> select = new ArrayList<>();
        select.add("count()");
        for (String c : columns) {
            select.add("countIf(" + ClickHouseSql.id(c) + " IS NULL)");
        }
        // the row hash is written once, under an alias no column of the table has (the text of the hash grows with
        // the columns: spelled out at each use, a wide sampled table's query would pass max_query_size)
        String h = ClickHouseSql.id(freeAlias(columns));
        String filter = sampleModulo > 1 ? h + " % " + sampleModulo + " = 0" : "1";
        select.add("sumIf(" + h + ", " + filter + ")");
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
        select.addAll(extraAggregates);
        String sql = "WITH " + rowHash(columns) + " AS " + h + " SELECT " + String.join(", ", select) + " FROM "
            + ClickHouseSql.table(database, table) + " WHERE " + where;
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
        int extra = k + 3 + hashedColumns.size();
        return new Scan(new TargetStats(Long.parseLong(row.get(0)), nulls, Long.parseUnsignedLong(row.get(k)),
            Long.parseLong(row.get(k + 1)), metadataPresent, Long.parseLong(row.get(k + 2)), columnHashes, Map.of(),
            MetadataColumns.NAMES), row.subList(extra, extra + extraAggregates.size()));
    }

    /**
     * The exact distinct counts of {@code columns} over the whole table: of each column's value hashes, as the
     * source side counts them. The
     * table's first sorting-key column, when its type maps values one-to-one to their RowBinary bytes (no NULL, no
     * float), is counted as groups of a {@code GROUP BY} read in key order: constant memory, where
     * {@code uniqExact} would hold every key (a few hundred MiB at 5M keys).
     */
    static Map<String, Long> distinctCounts(ClickHouseEndpoint ch, String database, String table,
                                            List<String> columns) {
        Map<String, Long> distinct = new LinkedHashMap<>();
        if (columns.isEmpty()) {
            return distinct;
        }
        String inOrder = orderedKeyColumn(ch, database, table, columns);
        List<String> hashed = columns.stream().filter(c -> !c.equals(inOrder)).toList();
        Map<String, Long> byHash = new LinkedHashMap<>();
        if (!hashed.isEmpty()) {
            List<String> row = ch.query("SELECT " + String.join(", ", hashed.stream()
                .map(c -> "uniqExact(" + columnHash(c) + ")").toList()) + " FROM "
                + ClickHouseSql.table(database, table)).get(0);
            for (int i = 0; i < hashed.size(); i++) {
                byHash.put(hashed.get(i), Long.parseLong(row.get(i)));
            }
        }
        for (String c : columns) {
            distinct.put(c, c.equals(inOrder) ? Long.parseLong(ch.query("SELECT count() FROM (SELECT "
                + ClickHouseSql.id(c) + " FROM " + ClickHouseSql.table(database, table) + " GROUP BY "
                + ClickHouseSql.id(c) + ") SETTINGS optimize_aggregation_in_order = 1").get(0).get(0))
                : byHash.get(c));
        }
        return distinct;
    }

    /** The one of {@code columns} that is the table's first sorting-key column with a one-to-one type, or null. */
    private static String orderedKeyColumn(ClickHouseEndpoint ch, String database, String table,
                                           List<String> columns) {
        return firstSortKey(ch, database, table)
            .filter(k -> columns.contains(k.name()) && ONE_TO_ONE.matcher(k.type()).matches())
            .map(SortKeyColumn::name).orElse(null);
    }

    /** A table's first sorting-key column and its type. */
    record SortKeyColumn(String name, String type) {
    }

    /** The table's first sorting-key column when it is a plain column (not an expression). */
    static Optional<SortKeyColumn> firstSortKey(ClickHouseEndpoint ch, String database, String table) {
        Optional<String> key = new TableAdmin(ch).sortingKey(database, table);
        if (key.isEmpty() || key.get().isBlank()) {
            return Optional.empty();
        }
        // ORDER BY (k) reads back as "(k)", ORDER BY (a, b) as "a, b"; an expression matches no column below
        String keyText = key.get().trim();
        while (keyText.startsWith("(") && keyText.endsWith(")")) {
            keyText = keyText.substring(1, keyText.length() - 1).trim();
        }
        String first = keyText.split(",")[0].trim().replace("`", "");
        return ch.operations().columns(database, table).stream().filter(c -> c.name().equals(first)).findFirst()
            .map(c -> new SortKeyColumn(first, c.type()));
    }

    /** A name for the row hash that is none of {@code columns} (compared case-insensitively). */
    static String freeAlias(List<String> columns) {
        Set<String> taken = new HashSet<>();
        columns.forEach(c -> taken.add(c.toLowerCase(Locale.ROOT)));
        String alias = "dpone_row_hash";
        for (int i = 1; taken.contains(alias); i++) {
            alias = "dpone_row_hash_" + i;
        }
        return alias;
    }

    /** A column's value hash, as {@link TypedRowHasher} defines it. */
    public static String columnHash(String column) {
        return "ifNull(xxHash64(" + ClickHouseSql.id(column) + "), "
            + Long.toUnsignedString(TypedRowHasher.NULL_HASH) + ")";
    }

    /** A row's hash over {@code columns}, as {@link TypedRowHasher} defines it. */
    public static String rowHash(List<String> columns) {
        return "xxHash64(" + String.join(", ", columns.stream().map(TableStatsReader::columnHash).toList()) + ")";
    }
}
