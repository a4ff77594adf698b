package io.dpone.clickhouse.cluster;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.ServerClickHouseEndpoint;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The statements cluster publication runs on one member over its own direct endpoint: create a table, load a sealed
 * artifact file, drop a table, exchange two tables locally, sync a replica. On a server, drops are {@code SYNC}; the
 * embedded engine (chDB 26.5) never returns from {@code DROP ... SYNC}, so there the drop is plain (an Atomic database
 * removes the name at once). Failures reach the caller as the endpoint raised them.
 */
public final class MemberStatements {
    private final ClickHouseEndpoint endpoint;

    public MemberStatements(ClickHouseEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    /** {@code CREATE TABLE} as {@code table} says (fails when the table exists). */
    public void createTable(MergeTreeTable table) {
        endpoint.execute(table.createSql(null));
    }

    /**
     * One artifact column: its name, the target type and the type the file holds it as; when the two differ the load
     * casts the file's value to the target type.
     */
    public record ArtifactColumn(String name, String type, String fileType) {
    }

    /** A sealed artifact file to insert into {@code database.table}, deduplicated by {@code deduplicationToken}. */
    public record ArtifactLoad(String database, String table, List<ArtifactColumn> columns, Path file, String format,
                               String deduplicationToken) {
        public ArtifactLoad {
            columns = List.copyOf(columns);
        }
    }

    /**
     * Inserts the artifact file: synchronous and deduplicated by the token. A multi-block insert dedups block i by
     * {@code token_i}, so the file is read in its own row order to cut the same blocks on a retry.
     */
    public void loadArtifact(ArtifactLoad load) {
        endpoint.insertFile(insertOf(load));
    }

    static ClickHouseEndpoint.InsertFile insertOf(ArtifactLoad load) {
        List<ArtifactColumn> cols = load.columns();
        return new ClickHouseEndpoint.InsertFile(ClickHouseSql.table(load.database(), load.table()),
            ClickHouseSql.idList(cols.stream().map(ArtifactColumn::name).toList()), selectList(cols), load.file(),
            load.format(), structure(cols), loadSettings(load.deduplicationToken()));
    }

    /** {@code name FileType, ...} for {@code file()} / {@code input()}. */
    static String structure(List<ArtifactColumn> columns) {
        return columns.stream().map(c -> ClickHouseSql.id(c.name()) + " " + c.fileType())
            .collect(Collectors.joining(", "));
    }

    /** The select list that yields every target type exactly. */
    static String selectList(List<ArtifactColumn> columns) {
        return columns.stream().map(c -> c.fileType().equals(c.type()) ? ClickHouseSql.id(c.name())
                : "CAST(" + ClickHouseSql.id(c.name()) + ", " + ClickHouseSql.literal(c.type()) + ")")
            .collect(Collectors.joining(", "));
    }

    static String loadSettings(String dedupToken) {
        return "insert_deduplicate = 1, insert_deduplication_token = " + ClickHouseSql.literal(dedupToken)
            + ", async_insert = 0, input_format_parquet_preserve_order = 1";
    }

    /** {@code DROP TABLE database.table}, {@code SYNC} on a server. */
    public void dropTable(String database, String table) {
        endpoint.execute("DROP TABLE " + ClickHouseSql.table(database, table)
            + ("embedded".equals(endpoint.kind()) ? "" : " SYNC"));
    }

    /** {@code EXCHANGE TABLES} in one database on this member, under {@code queryId} on a server. */
    public void exchange(String database, String a, String b, String queryId) {
        String sql = "EXCHANGE TABLES " + ClickHouseSql.table(database, a) + " AND " + ClickHouseSql.table(database, b);
        if (endpoint instanceof ServerClickHouseEndpoint server) {
            server.execute(sql, queryId, Map.of());
        } else {
            endpoint.execute(sql);
        }
    }

    /** {@code SYSTEM SYNC REPLICA} (internal mode only; the embedded engine has no replicated tables). */
    public void syncReplica(String database, String table) {
        endpoint.execute("SYSTEM SYNC REPLICA " + ClickHouseSql.table(database, table));
    }
}
