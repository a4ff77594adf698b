package io.dpone.publication;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.error.Blocker;
import io.dpone.route.RunReport;
import io.dpone.testing.Await;
import io.dpone.testing.TestEngines;
import io.dpone.testing.twin.TwinCluster;
import io.dpone.testing.twin.TwinProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The cluster publication tests on two member twins ({@code TwinClusterPublicationTest} for external replication,
 * {@code TwinInternalPublicationTest} for internal): their source table, target database, manifest, connection
 * context and the reads of what each member holds.
 */
final class TwinPublications {
    private TwinPublications() {
    }

    /** An H2 source with {@code dbo.items} of three rows; returns its URL. */
    static String source() throws Exception {
        String h2 = TestEngines.newH2Url();
        try (Connection c = DriverManager.getConnection(h2, "sa", ""); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA dbo");
            s.execute("CREATE TABLE dbo.items (id INT PRIMARY KEY, name NVARCHAR(20))");
            s.execute("INSERT INTO dbo.items VALUES (1, N'a'), (2, N'b'), (3, N'c')");
        }
        return h2;
    }

    /** A new Atomic database named from {@code prefix} on every member. */
    static String targetDatabase(String prefix, TwinProcess... members) throws Exception {
        String db = TestEngines.newDatabase(prefix);
        for (TwinProcess t : members) {
            try (ClickHouseEndpoint ch = t.endpoint()) {
                ch.execute("CREATE DATABASE " + ClickHouseSql.id(db) + " ENGINE = Atomic");
            }
        }
        return db;
    }

    /**
     * The manifest of a full refresh of {@code dbo.items} into {@code db.items} published on {@code cluster} with
     * {@code engine} and {@code replicationMode}, its artifacts under {@code dir}.
     */
    static Path manifest(Path dir, String db, String name, String engine, String cluster, String replicationMode)
        throws Exception {
        return Files.writeString(dir.resolve(db + ".batch.yaml"), """
            name: %s
            source:
              type: mssql
              connection_ref: %s
              table: {schema: dbo, name: items}
            sink:
              type: clickhouse
              connection_ref: cluster_ch
              table: {schema: %s, name: items}
              staging: {schema: %s}
              strategy: {mode: full_refresh}
              options:
                lineage: false
                external_artifact_store_path: %s
                physical_design:
                  storage:
                    clickhouse:
                      engine: %s
                      cluster: {name: %s, ddl_scope: cluster, replication_mode: %s}
            """.formatted(name, TestEngines.SOURCE, db, db, dir.resolve("artifacts"), engine, cluster,
            replicationMode));
    }

    /**
     * The cluster alias on member {@code a}, its members mapped to the twins (swapped: each id to the other twin).
     */
    static ConnectionContext context(String h2, TwinProcess a, TwinProcess b, boolean swapped) {
        ContextEntry entry = a.alias("cluster_ch");
        Map<String, String> options = new HashMap<>();
        options.put("members", swapped ? TwinCluster.A + "=twin_b, " + TwinCluster.B + "=twin_a"
            : TwinCluster.A + "=twin_a, " + TwinCluster.B + "=twin_b");
        options.put("ddl_wait", "PT5S");
        return ConnectionContext.of(Map.of(
            TestEngines.SOURCE, TestEngines.sourceEntry(h2),
            "cluster_ch", new ContextEntry("cluster_ch", ConnectionType.CLICKHOUSE, entry.url(), entry.user(), null,
                entry.passwordFile(), false, options),
            "twin_a", a.alias("twin_a"), "twin_b", b.alias("twin_b")), false);
    }

    /** Waits (bounded) until both hosts recorded the newest exchange of {@code db} in the queue finished. */
    static void awaitExchangeFinished(TwinProcess a, String db) throws Exception {
        String finished = "SELECT countIf(status = 'Finished') FROM system.distributed_ddl_queue WHERE entry = ("
            + "SELECT max(entry) FROM system.distributed_ddl_queue WHERE query LIKE "
            + ClickHouseSql.literal("EXCHANGE TABLES `" + db + "`%") + ")";
        try (ClickHouseEndpoint ch = a.endpoint()) {
            Await.until(Duration.ofSeconds(60), "b to run the queued exchange (both hosts finished)",
                () -> ch.query(finished).equals(List.of(List.of("2"))));
        }
    }

    /** The target's row count on {@code t}. */
    static String targetRows(TwinProcess t, String db) throws Exception {
        return tables(t, db).stream().filter(r -> r.get(0).equals("items")).map(r -> r.get(1)).findFirst().orElseThrow();
    }

    /** Every table of {@code db} on {@code t} with its row count. */
    static List<List<String>> tables(TwinProcess t, String db) throws Exception {
        try (ClickHouseEndpoint ch = t.endpoint()) {
            return ch.query("SELECT name, toString(total_rows) FROM system.tables WHERE database = "
                + ClickHouseSql.literal(db) + " ORDER BY name");
        }
    }

    static List<String> codes(RunReport r) {
        return r.blockers().stream().map(Blocker::code).toList();
    }
}
