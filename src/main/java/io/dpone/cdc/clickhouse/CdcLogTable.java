package io.dpone.cdc.clickhouse;

import io.dpone.cdc.StreamIdentity;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.source.SourceColumn;
import io.dpone.source.types.SqlServerTypeNames;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The DDL of one CDC log table {@code db.table}: its {@code CREATE} (MergeTree, ORDER BY
 * {@code (dpone_cdc_unique_key_hash, dpone_cdc_version)}, {@code non_replicated_deduplication_window}, the comment
 * that binds it to one stream), the {@code ADD COLUMN} of payload columns first seen later, the metadata columns
 * ({@link #COLUMNS}), the {@code MODIFY COLUMN} of a widened or newly nullable one, and the lookup of the table's
 * comment and columns.
 */
final class CdcLogTable {
    static final String SCHEMA = "dpone.cdc_log.v1";
    static final int DEDUPLICATION_WINDOW = 1000;
    /** The prefix of the metadata columns, reserved: no payload column may use it. */
    static final String PREFIX = "dpone_cdc_";
    /** The metadata columns and their ClickHouse types, in table order (after the payload columns). */
    static final Map<String, String> COLUMNS = columns();

    private final ClickHouseEndpoint ch;
    private final String database;
    private final String table;

    CdcLogTable(ClickHouseEndpoint ch, String database, String table) {
        this.ch = ch;
        this.database = database;
        this.table = table;
    }

    /** The comment of a typed payload column: the source type it was created for and its source nullability. */
    static final String COLUMN_MARK = "dpone.cdc_column.v1";

    /**
     * The log table's comment, column names and typed payload columns (those whose column comment records a
     * source type: {@code dpone.cdc_column.v1 mssql=decimal(10,2) nullable=1}), as last read.
     */
    record Shape(String comment, Set<String> columns, Map<String, SourceColumn> typed) {
        /** Whether payload columns exist that carry JSON text (a log created before types were known). */
        boolean hasJsonTextPayload() {
            return columns.stream().anyMatch(c -> !c.startsWith(PREFIX) && !typed.containsKey(c));
        }
    }

    /**
     * The log table's comment and column names, in one query (a row per column, each with the table's comment);
     * empty when the table does not exist.
     */
    Optional<Shape> read() {
        List<List<String>> rows = ch.query("SELECT name, (SELECT comment FROM system.tables WHERE database = "
            + ClickHouseSql.literal(database) + " AND name = " + ClickHouseSql.literal(table) + "), comment "
            + "FROM system.columns WHERE database = " + ClickHouseSql.literal(database) + " AND table = "
            + ClickHouseSql.literal(table));
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        Set<String> columns = new HashSet<>();
        Map<String, SourceColumn> typed = new LinkedHashMap<>();
        for (List<String> r : rows) {
            columns.add(r.get(0));
            typedColumn(r.get(0), r.get(2)).ifPresent(c -> typed.put(c.name(), c));
        }
        String comment = rows.get(0).get(1);
        return Optional.of(new Shape(comment == null ? "" : comment, columns, typed));
    }

    /** The source column a payload column's comment records, if it is a typed payload column. */
    static Optional<SourceColumn> typedColumn(String name, String comment) {
        if (comment == null || !comment.startsWith(COLUMN_MARK + " mssql=")) {
            return Optional.empty();
        }
        String[] parts = comment.split(" ");
        if (parts.length < 3 || parts.length > 4 || !parts[2].startsWith("nullable=")) {
            return Optional.empty();
        }
        String type = parts[1].substring("mssql=".length());
        return SqlServerTypeNames.parse(type).map(t -> new SourceColumn(name, SqlServerTypeNames.name(t),
            parts[2].equals("nullable=1"), t));
    }

    /** The 1-based position of a typed payload column among the stream's unique keys, 0 when it is not a key. */
    static int keyOrdinal(String comment) {
        if (comment == null || !comment.startsWith(COLUMN_MARK + " ")) {
            return 0;
        }
        for (String part : comment.split(" ")) {
            if (part.startsWith("key=") && part.substring(4).matches("[1-9][0-9]{0,2}")) {
                return Integer.parseInt(part.substring(4));
            }
        }
        return 0;
    }

    /**
     * The log's DDL of a payload column: typed {@code Nullable(T)} with its comment (source type, source
     * nullability, {@code key=n} for the n-th unique key), or JSON text.
     */
    static String columnDdl(String name, SourceColumn typed, List<String> uniqueKeys) {
        if (typed == null) {
            return ClickHouseSql.id(name) + " Nullable(String)";
        }
        // every log column is Nullable: a delete of Change Tracking carries only its keys
        return ClickHouseSql.id(name) + " Nullable(" + typed.type().clickHouseType() + ") COMMENT "
            + ClickHouseSql.literal(COLUMN_MARK + " mssql=" + SqlServerTypeNames.name(typed.type()) + " nullable="
                + (typed.nullable() ? "1" : "0") + (uniqueKeys.contains(name) ? " key="
                + (uniqueKeys.indexOf(name) + 1) : ""));
    }

    /**
     * Creates the database and the log table, if not there, with the stream's unique keys as payload columns, typed
     * when {@code types} knows them.
     */
    void create(StreamIdentity stream, Map<String, SourceColumn> types) {
        ch.execute("CREATE DATABASE IF NOT EXISTS " + ClickHouseSql.id(database));
        Set<String> payload = new LinkedHashSet<>(stream.uniqueKeys());
        String columns = payload.stream().map(c -> columnDdl(c, types.get(c), stream.uniqueKeys()))
            .collect(Collectors.joining(", "));
        String meta = COLUMNS.entrySet().stream().map(en -> ClickHouseSql.id(en.getKey()) + " " + en.getValue())
            .collect(Collectors.joining(", "));
        ch.execute("CREATE TABLE IF NOT EXISTS " + ClickHouseSql.table(database, table) + " ("
            + (columns.isEmpty() ? "" : columns + ", ") + meta + ") ENGINE = MergeTree ORDER BY ("
            + ClickHouseSql.id("dpone_cdc_unique_key_hash") + ", " + ClickHouseSql.id("dpone_cdc_version") + ")"
            + " SETTINGS non_replicated_deduplication_window = " + DEDUPLICATION_WINDOW
            + " COMMENT " + ClickHouseSql.literal(comment(stream)));
    }

    /**
     * Adds the {@code payload} columns not in {@code existing}, typed when {@code types} knows them, in one
     * {@code ALTER TABLE}; none: no statement.
     */
    void addMissingColumns(Set<String> payload, Set<String> existing, Map<String, SourceColumn> types,
                           List<String> uniqueKeys) {
        List<String> missing = payload.stream().filter(c -> !existing.contains(c)).toList();
        if (!missing.isEmpty()) {
            ch.execute("ALTER TABLE " + ClickHouseSql.table(database, table) + " " + missing.stream()
                .map(c -> "ADD COLUMN IF NOT EXISTS " + columnDdl(c, types.get(c), uniqueKeys))
                .collect(Collectors.joining(", ")));
        }
    }

    /**
     * Alters recorded payload columns in one {@code ALTER TABLE}: each to its new type ({@code Nullable}, as every log
     * column) and its new column comment (source type, nullability, key ordinal); none: no statement.
     */
    void alterColumns(List<SourceColumn> columns, List<String> uniqueKeys) {
        if (columns.isEmpty()) {
            return;
        }
        List<String> clauses = new java.util.ArrayList<>();
        for (SourceColumn c : columns) {
            String ddl = columnDdl(c.name(), c, uniqueKeys);
            int comment = ddl.indexOf(" COMMENT ");
            clauses.add("MODIFY COLUMN " + ddl.substring(0, comment));
            clauses.add("COMMENT COLUMN " + ClickHouseSql.id(c.name()) + ddl.substring(comment + " COMMENT".length()));
        }
        ch.execute("ALTER TABLE " + ClickHouseSql.table(database, table) + " " + String.join(", ", clauses));
    }

    /** The table comment that binds the log to one stream. */
    static String comment(StreamIdentity stream) {
        return SCHEMA + " stream_id=" + stream.streamId();
    }

    /** The stream id recorded in a log table comment, if it is a dpone CDC log. */
    static Optional<String> streamIdOf(String comment) {
        String prefix = SCHEMA + " stream_id=";
        return comment != null && comment.startsWith(prefix) ? Optional.of(comment.substring(prefix.length()))
            : Optional.empty();
    }

    private static Map<String, String> columns() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("dpone_cdc_unique_key_hash", "String");
        m.put("dpone_cdc_event_id", "String");
        m.put("dpone_cdc_operation", "LowCardinality(String)");
        m.put("dpone_cdc_position", "String");
        m.put("dpone_cdc_sequence", "UInt64");
        m.put("dpone_cdc_version", "UInt256");
        m.put("dpone_cdc_commit_time", "DateTime64(3, 'UTC')");
        m.put("dpone_cdc_run_id", "String");
        m.put("dpone_cdc_batch_id", "String");
        return Collections.unmodifiableMap(m);
    }
}
