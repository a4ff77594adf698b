package io.dpone.clickhouse.cluster;

import io.dpone.clickhouse.ClickHouseSql;

/** The only statements dpone sends {@code ON CLUSTER}, as {@link DistributedDdl} renders them. */
public sealed interface ClusterDdlStatement {

    /** The statement text with {@code ON CLUSTER cluster}. */
    String sql(String cluster);

    /** {@code CREATE TABLE ... ON CLUSTER} (internal mode: the replicated candidate or first empty target). */
    record Create(MergeTreeTable table) implements ClusterDdlStatement {
        @Override
        public String sql(String cluster) {
            return table.createSql(cluster);
        }
    }

    /** {@code EXCHANGE TABLES database.a AND database.b ON CLUSTER}: the publication DDL. */
    record Exchange(String database, String a, String b) implements ClusterDdlStatement {
        @Override
        public String sql(String cluster) {
            return "EXCHANGE TABLES " + ClickHouseSql.table(database, a) + " AND " + ClickHouseSql.table(database, b)
                + " ON CLUSTER " + ClickHouseSql.id(cluster);
        }
    }
}
