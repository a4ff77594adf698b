package io.dpone.clickhouse.cdc;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The statements of a rebuild materialization of a CDC log: the log's columns with their comments, the check of a
 * JSON-text log's key hashes, the log's version range, the latest row per key up to a bound, and the staging table
 * created and filled from it. The materializer ({@code cdc.clickhouse.CdcMaterializer}) decides; this builds the SQL.
 */
public final class RebuildStatements {
    private final ClickHouseEndpoint ch;

    public RebuildStatements(ClickHouseEndpoint ch) {
        this.ch = ch;
    }

    /** A log column: its name, type and comment (where a typed log records the source type and key ordinal). */
    public record LogColumn(String name, String type, String comment) {
    }

    /** The rows of a log, and its lowest and highest version (decimal text; null or empty for none). */
    public record VersionRange(long rows, String min, String max) {
    }

    /** The columns of {@code database.table} in their order, with their comments. */
    public List<LogColumn> describe(String database, String table) {
        return ch.query("SELECT name, type, comment FROM system.columns WHERE database = "
                + ClickHouseSql.literal(database) + " AND table = " + ClickHouseSql.literal(table)
                + " ORDER BY position").stream().map(r -> new LogColumn(r.get(0), r.get(1), r.get(2))).toList();
    }

    /**
     * How many rows of the log hold a {@code hashColumn} that is not the SHA-256 (lower hex) of their {@code keys}'
     * canonical JSON text ({@code [k1,k2]}, NULL as {@code null}).
     */
    public long keyHashMismatches(String database, String table, List<String> keys, String hashColumn) {
        String recomputed = "lower(hex(SHA256(concat('[', " + keys.stream()
            .map(k -> "ifNull(" + ClickHouseSql.id(k) + ", 'null')").collect(Collectors.joining(", ',', "))
            + ", ']'))))";
        return Long.parseLong(ch.query("SELECT count() FROM " + ClickHouseSql.table(database, table)
            + " WHERE " + recomputed + " != " + ClickHouseSql.id(hashColumn)).get(0).get(0));
    }

    /** The log's rows and version range ({@code versionColumn}). */
    public VersionRange versionRange(String database, String table, String versionColumn) {
        String v = ClickHouseSql.id(versionColumn);
        List<String> r = ch.query("SELECT count(), toString(min(" + v + ")), toString(max(" + v
            + ")) FROM " + ClickHouseSql.table(database, table)).get(0);
        return new VersionRange(Long.parseLong(r.get(0)), r.get(1), r.get(2));
    }

    /**
     * {@code SELECT carried FROM log WHERE version <= bound AND operation != 'update_before'}: the log's rows up to the
     * run's bound, the before-images left out.
     */
    public static String rowsUpTo(String database, String table, List<String> carried, String versionColumn,
                                  String bound, String operationColumn) {
        return "SELECT " + ClickHouseSql.idList(carried) + " FROM " + ClickHouseSql.table(database, table)
            + " WHERE " + ClickHouseSql.id(versionColumn) + " <= toUInt256(" + ClickHouseSql.literal(bound) + ")"
            + " AND " + ClickHouseSql.id(operationColumn) + " != 'update_before'";
    }

    /** The latest of {@code rows} per {@code by} (columns), by {@code versionColumn}. */
    public static String latest(String rows, List<String> carried, List<String> by, String versionColumn) {
        String byList = ClickHouseSql.idList(by);
        return "SELECT " + ClickHouseSql.idList(carried) + " FROM (" + rows + ") ORDER BY " + byList + ", "
            + ClickHouseSql.id(versionColumn) + " DESC LIMIT 1 BY " + byList;
    }

    /** The rows {@code latest} selects and how many of them are deletes ({@code operationColumn}): two values. */
    public long[] keysAndDeletes(String latest, String operationColumn) {
        List<String> r = ch.query("SELECT count(), countIf(" + ClickHouseSql.id(operationColumn) + " = 'delete') FROM ("
            + latest + ")").get(0);
        return new long[] {Long.parseLong(r.get(0)), Long.parseLong(r.get(1))};
    }

    /** {@code CREATE TABLE} of a MergeTree staging table with {@code columns} (name to type), sort key and comment. */
    public void createStage(String database, String table, Map<String, String> columns, String orderBy,
                            String comment) {
        List<String> defs = new ArrayList<>();
        columns.forEach((c, t) -> defs.add(ClickHouseSql.id(c) + " " + t));
        ch.execute("CREATE TABLE " + ClickHouseSql.table(database, table) + " (" + String.join(", ", defs)
            + ") ENGINE = MergeTree ORDER BY " + orderBy + " COMMENT " + ClickHouseSql.literal(comment));
    }

    /**
     * Inserts the rows {@code latest} selects into the staging table: {@code carried} as they are, and with a
     * {@code deletedColumn} (tombstone mode) the deleted flag from the operation, deletes kept; without one, deletes
     * left out.
     */
    public void fillStage(String database, String table, List<String> carried, String latest, String operationColumn,
                          String deletedColumn) {
        List<String> insertColumns = new ArrayList<>(carried);
        String select = ClickHouseSql.idList(carried);
        if (deletedColumn != null) {
            insertColumns.add(deletedColumn);
            select += ", toUInt8(" + ClickHouseSql.id(operationColumn) + " = 'delete')";
        }
        ch.execute("INSERT INTO " + ClickHouseSql.table(database, table) + " (" + ClickHouseSql.idList(insertColumns)
            + ") SELECT " + select + " FROM (" + latest + ")"
            + (deletedColumn != null ? "" : " WHERE " + ClickHouseSql.id(operationColumn) + " != 'delete'")
            + " SETTINGS async_insert = 0");
    }
}
