package io.dpone.clickhouse.cdc;

import static io.dpone.clickhouse.cdc.VersionedColumns.DELETED;
import static io.dpone.clickhouse.cdc.VersionedColumns.VERSION;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The view an incremental target is served as: its {@code SELECT} over the versioned table (the latest row per key,
 * by {@code FINAL} or by {@code argMax}, every column cast to its serving type) and its publication (what the target
 * name holds now, {@code CREATE VIEW}, {@code CREATE OR REPLACE VIEW}).
 */
public final class ServingView {
    private static final String ROW = "dpone_cdc_row";

    private final ClickHouseEndpoint ch;
    private final String database;

    /**
     * What the view reads: the versioned table {@code database.table}, the {@code columns} it serves in order (the
     * deleted flag last in tombstone mode), each column's serving type ({@code types}), the keys {@code by}; in
     * tombstone mode a key whose latest change is a delete stays (flagged), else it is left out.
     */
    public record Source(String database, String table, List<String> columns, Map<String, String> types,
                         List<String> by, boolean tombstone) {
        public Source {
            columns = List.copyOf(columns);
            types = Map.copyOf(types);
            by = List.copyOf(by);
        }
    }

    /** What a name holds: its engine ({@code View} for a view) and comment. */
    public record Existing(String engine, String comment) {
    }

    public ServingView(ClickHouseEndpoint ch, String database) {
        this.ch = ch;
        this.database = database;
    }

    /**
     * The view's {@code SELECT}: with {@code useFinal}, {@code SELECT ... FROM versions FINAL} (which keeps the highest
     * version per key and, when the table's engine drops deletes, leaves a key out whose latest change is one); else
     * grouped by key with {@code argMax} of the row, deletes filtered unless tombstone.
     */
    public static String select(Source s, boolean useFinal) {
        String table = ClickHouseSql.table(s.database(), s.table());
        if (useFinal) {
            return "SELECT " + s.columns().stream().map(c -> cast(s, c, ClickHouseSql.id(c)) + " AS "
                + ClickHouseSql.id(c)).collect(Collectors.joining(", ")) + " FROM " + table + " FINAL";
        }
        List<String> inRow = new ArrayList<>(s.columns().stream().filter(c -> !s.by().contains(c)).toList());
        if (!s.tombstone()) {
            inRow.add(DELETED);
        }
        List<String> select = new ArrayList<>();
        for (String c : s.columns()) {
            String e = s.by().contains(c) ? ClickHouseSql.id(c) : "tupleElement(" + ClickHouseSql.id(ROW) + ", "
                + (inRow.indexOf(c) + 1) + ")";
            select.add(cast(s, c, e) + " AS " + ClickHouseSql.id(c));
        }
        String inner = "SELECT " + ClickHouseSql.idList(s.by()) + ", argMax(tuple(" + ClickHouseSql.idList(inRow)
            + "), " + ClickHouseSql.id(VERSION) + ") AS " + ClickHouseSql.id(ROW) + " FROM " + table + " GROUP BY "
            + ClickHouseSql.idList(s.by());
        return "SELECT " + String.join(", ", select) + " FROM (" + inner + ") AS " + ClickHouseSql.id(ROW + "s")
            + (s.tombstone() ? ""
            : " WHERE tupleElement(" + ClickHouseSql.id(ROW) + ", " + (inRow.indexOf(DELETED) + 1) + ") = 0");
    }

    /** The engine and comment of {@code name}; empty when nothing has that name. */
    public Optional<Existing> existing(String name) {
        List<List<String>> rows = ch.query("SELECT engine, comment FROM system.tables WHERE database = "
            + ClickHouseSql.literal(database) + " AND name = " + ClickHouseSql.literal(name));
        return rows.isEmpty() ? Optional.empty() : Optional.of(new Existing(rows.get(0).get(0), rows.get(0).get(1)));
    }

    /** {@code CREATE VIEW name AS select COMMENT comment}. */
    public void create(String name, String select, String comment) {
        ch.execute("CREATE VIEW " + ClickHouseSql.table(database, name) + body(select, comment));
    }

    /** {@code CREATE OR REPLACE VIEW name AS select COMMENT comment}. */
    public void replace(String name, String select, String comment) {
        ch.execute("CREATE OR REPLACE VIEW " + ClickHouseSql.table(database, name) + body(select, comment));
    }

    private static String body(String select, String comment) {
        return " AS " + select + " COMMENT " + ClickHouseSql.literal(comment);
    }

    /** A column cast to its serving type (a view's header would otherwise drop {@code LowCardinality}). */
    private static String cast(Source s, String column, String expression) {
        return "CAST(" + expression + ", " + ClickHouseSql.literal(s.types().get(column)) + ")";
    }
}
