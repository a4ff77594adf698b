package io.dpone.clickhouse.cluster;

import io.dpone.clickhouse.CatalogueReads;
import io.dpone.clickhouse.ClickHouseSql;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A table cluster publication creates on a member or {@code ON CLUSTER} (a candidate, or an empty first target): its
 * columns with ClickHouse types, a {@code *MergeTree} family engine (replicated engines take the server's default
 * replication path), the sort key and the comment (the generation marker; null for none).
 */
public record MergeTreeTable(String database, String name, List<CatalogueReads.Column> columns, String engine,
                             List<String> orderBy, String comment) {
    /** Enough recent inserts to recognise a retried load of one artifact (non-replicated engines). */
    public static final int DEDUPLICATION_WINDOW = 1000;
    private static final Pattern ENGINE = Pattern.compile("^[A-Za-z]*MergeTree$");
    private static final Pattern TYPE = Pattern.compile("^[A-Za-z0-9_(), ']{1,200}$");

    public MergeTreeTable {
        columns = List.copyOf(columns);
        orderBy = List.copyOf(orderBy);
    }

    /** Whether {@code engine} is a {@code *MergeTree} family name (the only engines publication creates). */
    public static boolean mergeTreeFamily(String engine) {
        return engine != null && ENGINE.matcher(engine).matches();
    }

    /** Whether the engine replicates (and so deduplicates through Keeper by default). */
    public static boolean replicated(String engine) {
        return engine.startsWith("Replicated");
    }

    /**
     * {@code CREATE TABLE db.t [ON CLUSTER c] (...) ENGINE = E() ORDER BY (...) [SETTINGS ...] COMMENT '...'}: for a
     * non-replicated engine {@code non_replicated_deduplication_window}, so {@code insert_deduplication_token}
     * deduplicates.
     */
    String createSql(String onCluster) {
        if (!mergeTreeFamily(engine)) {
            throw new IllegalArgumentException("the table engine must be a MergeTree family name");
        }
        String cols = columns.stream().map(c -> ClickHouseSql.id(c.name()) + " " + type(c.type()))
            .collect(Collectors.joining(", "));
        StringBuilder sql = new StringBuilder("CREATE TABLE ").append(ClickHouseSql.table(database, name));
        if (onCluster != null) {
            sql.append(" ON CLUSTER ").append(ClickHouseSql.id(onCluster));
        }
        sql.append(" (").append(cols).append(") ENGINE = ").append(engine).append("()")
            .append(" ORDER BY (").append(ClickHouseSql.idList(orderBy)).append(")");
        if (!replicated(engine)) {
            sql.append(" SETTINGS non_replicated_deduplication_window = ").append(DEDUPLICATION_WINDOW);
        }
        if (comment != null) {
            sql.append(" COMMENT ").append(ClickHouseSql.literal(comment));
        }
        return sql.toString();
    }

    /**
     * Column types come from the source type mapping; they are checked against a conservative character set
     * (letters, digits, parentheses, commas, spaces and quotes for time zones) so nothing else can be spliced.
     */
    static String type(String type) {
        if (type == null || !TYPE.matcher(type).matches() || type.chars().filter(ch -> ch == '\'').count() % 2 != 0) {
            throw new IllegalArgumentException("invalid ClickHouse column type");
        }
        return type;
    }
}
