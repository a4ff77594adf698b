package io.dpone.clickhouse.cdc;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The DDL of one CDC log table {@code db.table} and the catalogue read of its shape: the {@code CREATE} (MergeTree
 * with a sort key, {@code non_replicated_deduplication_window} and a table comment), the {@code ADD COLUMN} of payload
 * columns first seen later, the {@code MODIFY COLUMN}/{@code COMMENT COLUMN} of a changed one, and the columns with
 * their comments and the table's comment. Every payload column is {@code Nullable}. What the comments say and which
 * columns a log has is {@code cdc.clickhouse.CdcLogTable}'s.
 */
public final class CdcLogDdl {
    private final ClickHouseEndpoint ch;
    private final String database;
    private final String table;

    /** A payload column: {@code Nullable(type)}, with a column comment unless {@code comment} is null. */
    public record PayloadColumn(String name, String type, String comment) {
        String ddl() {
            return ClickHouseSql.id(name) + " Nullable(" + type + ")"
                + (comment == null ? "" : " COMMENT " + ClickHouseSql.literal(comment));
        }
    }

    /** One column of the log as the catalogue lists it, with the table's comment (null when the catalogue has none). */
    public record CataloguedColumn(String name, String tableComment, String comment) {
    }

    /** @throws IllegalArgumentException when {@code database} or {@code table} is not an identifier */
    public CdcLogDdl(ClickHouseEndpoint ch, String database, String table) {
        ClickHouseSql.table(database, table);
        this.ch = ch;
        this.database = database;
        this.table = table;
    }

    /**
     * The log's columns, each with its comment and the table's, in one query; empty when the table does not exist.
     */
    public List<CataloguedColumn> describe() {
        return ch.query("SELECT name, (SELECT comment FROM system.tables WHERE database = "
            + ClickHouseSql.literal(database) + " AND name = " + ClickHouseSql.literal(table) + "), comment "
            + "FROM system.columns WHERE database = " + ClickHouseSql.literal(database) + " AND table = "
            + ClickHouseSql.literal(table)).stream().map(r -> new CataloguedColumn(r.get(0), r.get(1), r.get(2)))
            .toList();
    }

    /**
     * Creates the database and the log table, each if not there: the {@code payload} columns, then the {@code meta}
     * columns (name to type), {@code ENGINE = MergeTree ORDER BY (orderBy)}, the deduplication window and the
     * table comment.
     */
    public void create(List<PayloadColumn> payload, Map<String, String> meta, List<String> orderBy,
                       int deduplicationWindow, String comment) {
        ch.execute("CREATE DATABASE IF NOT EXISTS " + ClickHouseSql.id(database));
        String columns = payload.stream().map(PayloadColumn::ddl).collect(Collectors.joining(", "));
        String metaColumns = meta.entrySet().stream().map(en -> ClickHouseSql.id(en.getKey()) + " " + en.getValue())
            .collect(Collectors.joining(", "));
        ch.execute("CREATE TABLE IF NOT EXISTS " + ClickHouseSql.table(database, table) + " ("
            + (columns.isEmpty() ? "" : columns + ", ") + metaColumns + ") ENGINE = MergeTree ORDER BY ("
            + ClickHouseSql.idList(orderBy) + ")"
            + " SETTINGS non_replicated_deduplication_window = " + deduplicationWindow
            + " COMMENT " + ClickHouseSql.literal(comment));
    }

    /** Adds {@code columns} ({@code IF NOT EXISTS}) in one {@code ALTER TABLE}; none: no statement. */
    public void addColumns(List<PayloadColumn> columns) {
        if (!columns.isEmpty()) {
            ch.execute("ALTER TABLE " + ClickHouseSql.table(database, table) + " " + columns.stream()
                .map(c -> "ADD COLUMN IF NOT EXISTS " + c.ddl()).collect(Collectors.joining(", ")));
        }
    }

    /**
     * Changes existing columns in one {@code ALTER TABLE}: each to its type ({@code Nullable}) and its comment (every
     * column here has one); none: no statement.
     */
    public void alterColumns(List<PayloadColumn> columns) {
        if (columns.isEmpty()) {
            return;
        }
        List<String> clauses = new ArrayList<>();
        for (PayloadColumn c : columns) {
            if (c.comment() == null) {
                throw new IllegalArgumentException("an altered log column needs its comment");
            }
            clauses.add("MODIFY COLUMN " + ClickHouseSql.id(c.name()) + " Nullable(" + c.type() + ")");
            clauses.add("COMMENT COLUMN " + ClickHouseSql.id(c.name()) + " " + ClickHouseSql.literal(c.comment()));
        }
        ch.execute("ALTER TABLE " + ClickHouseSql.table(database, table) + " " + String.join(", ", clauses));
    }
}
