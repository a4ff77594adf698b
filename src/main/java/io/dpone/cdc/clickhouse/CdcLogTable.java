package io.dpone.cdc.clickhouse;

import io.dpone.cdc.StreamIdentity;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.cdc.CdcLogDdl;
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

/**
 * The shape of one CDC log table {@code db.table}: its {@code CREATE} (MergeTree, ORDER BY
 * {@code (dpone_cdc_unique_key_hash, dpone_cdc_version)}, {@code non_replicated_deduplication_window}, the comment
 * that binds it to one stream), the {@code ADD COLUMN} of payload columns first seen later, the metadata columns
 * ({@link #COLUMNS}), the {@code MODIFY COLUMN} of a widened or newly nullable one, and the lookup of the table's
 * comment and columns. It decides the columns, their types and comments; {@link CdcLogDdl} builds and runs the
 * statements.
 */
final class CdcLogTable {
    static final String SCHEMA = "dpone.cdc_log.v1";
    static final int DEDUPLICATION_WINDOW = 1000;
    /** The prefix of the metadata columns, reserved: no payload column may use it. */
    static final String PREFIX = "dpone_cdc_";
    /** The metadata columns and their ClickHouse types, in table order (after the payload columns). */
    static final Map<String, String> COLUMNS = columns();

    /** The log's sort key. */
    private static final List<String> ORDER_BY = List.of("dpone_cdc_unique_key_hash", "dpone_cdc_version");

    private final CdcLogDdl ddl;

    CdcLogTable(ClickHouseEndpoint ch, String database, String table) {
        this.ddl = new CdcLogDdl(ch, database, table);
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
        List<CdcLogDdl.CataloguedColumn> rows = ddl.describe();
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        Set<String> columns = new HashSet<>();
        Map<String, SourceColumn> typed = new LinkedHashMap<>();
        for (CdcLogDdl.CataloguedColumn r : rows) {
            columns.add(r.name());
            typedColumn(r.name(), r.comment()).ifPresent(c -> typed.put(c.name(), c));
        }
        String comment = rows.get(0).tableComment();
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
     * The log's payload column {@code name}: typed {@code Nullable(T)} with its comment (source type, source
     * nullability, {@code key=n} for the n-th unique key), or JSON text ({@code Nullable(String)}, no comment).
     */
    static CdcLogDdl.PayloadColumn column(String name, SourceColumn typed, List<String> uniqueKeys) {
        if (typed == null) {
            return new CdcLogDdl.PayloadColumn(name, "String", null);
        }
        // every log column is Nullable: a delete of Change Tracking carries only its keys
        return new CdcLogDdl.PayloadColumn(name, typed.type().clickHouseType(), COLUMN_MARK + " mssql="
            + SqlServerTypeNames.name(typed.type()) + " nullable=" + (typed.nullable() ? "1" : "0")
            + (uniqueKeys.contains(name) ? " key=" + (uniqueKeys.indexOf(name) + 1) : ""));
    }

    /**
     * Creates the database and the log table, if not there, with the stream's unique keys as payload columns, typed
     * when {@code types} knows them.
     */
    void create(StreamIdentity stream, Map<String, SourceColumn> types) {
        Set<String> payload = new LinkedHashSet<>(stream.uniqueKeys());
        ddl.create(payload.stream().map(c -> column(c, types.get(c), stream.uniqueKeys())).toList(), COLUMNS, ORDER_BY,
            DEDUPLICATION_WINDOW, comment(stream));
    }

    /**
     * Adds the {@code payload} columns not in {@code existing}, typed when {@code types} knows them, in one
     * {@code ALTER TABLE}; none: no statement.
     */
    void addMissingColumns(Set<String> payload, Set<String> existing, Map<String, SourceColumn> types,
                           List<String> uniqueKeys) {
        ddl.addColumns(payload.stream().filter(c -> !existing.contains(c))
            .map(c -> column(c, types.get(c), uniqueKeys)).toList());
    }

    /**
     * Alters recorded payload columns in one {@code ALTER TABLE}: each to its new type ({@code Nullable}, as every log
     * column) and its new column comment (source type, nullability, key ordinal); none: no statement.
     */
    void alterColumns(List<SourceColumn> columns, List<String> uniqueKeys) {
        ddl.alterColumns(columns.stream().map(c -> column(c.name(), c, uniqueKeys)).toList());
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
