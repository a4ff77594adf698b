package io.dpone.publication.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.Dpone;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.error.Blocker;
import io.dpone.report.ReportWriter;
import io.dpone.route.ProgressListener;
import io.dpone.route.RunReport;
import io.dpone.testing.TestEngines;
import java.nio.file.Files;
import io.dpone.manifest.ManifestLoader;
import io.dpone.camel.DponeCamel;
import io.dpone.route.FullRefreshRunner;
import java.nio.file.Path;
import org.apache.camel.api.management.ManagedCamelContext;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime path of a cluster publication on the embedded engine, whose config defines a one-shard, two-member
 * cluster with internal_replication=false and nothing behind it. Admission must finish (or block) before any
 * extraction, artifact or authority write, and a cluster manifest never falls back to a local publication.
 */
@io.dpone.testing.EngineTest
class ClusterPublicationRunnerTest {
    private static final String ALIAS = "cluster_ch";

    @TempDir
    Path dir;
    private String h2;
    private String database;

    @BeforeEach
    void source() throws Exception {
        h2 = TestEngines.newH2Url();
        database = TestEngines.newDatabase("pub");
        try (Connection c = DriverManager.getConnection(h2, "sa", ""); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA dbo");
            s.execute("CREATE TABLE dbo.items (id INT PRIMARY KEY, name NVARCHAR(20))");
            s.execute("INSERT INTO dbo.items VALUES (1, N'a'), (2, N'b')");
        }
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            ch.execute("CREATE DATABASE " + database + " ENGINE = Atomic");
        }
    }

    private ConnectionContext context(String members) {
        return ConnectionContext.of(Map.of(
            TestEngines.SOURCE, new ContextEntry(TestEngines.SOURCE, ConnectionType.MSSQL, h2, "sa", null, null, false,
                Map.of()),
            ALIAS, new ContextEntry(ALIAS, ConnectionType.CLICKHOUSE, null, null, null, null, true,
                Map.of("path", TestEngines.clickHousePath().toString(), "members", members))), false);
    }

    private Path manifest(String mode, String engine, boolean withStore) throws Exception {
        String store = withStore ? "    external_artifact_store_path: " + dir.resolve("artifacts") + "\n" : "";
        return Files.writeString(dir.resolve("m.yaml"), """
            name: cluster-test
            source:
              type: mssql
              connection_ref: mssql_test
              table: {schema: dbo, name: items}
            sink:
              type: clickhouse
              connection_ref: cluster_ch
              table: {schema: %s, name: items}
              staging: {schema: %s}
              strategy: {mode: full_refresh}
              options:
                lineage: false
            %s    physical_design:
                  storage:
                    clickhouse:
                      engine: %s
                      cluster: {name: %s, ddl_scope: cluster, replication_mode: %s}
            """.formatted(database, database, store, engine, TestEngines.PUBLICATION_CLUSTER, mode));
    }

    private RunReport run(Path manifest, String members) {
        return Dpone.run(manifest, "cluster-run-1", context(members), ProgressListener.NONE, dir.resolve("work"));
    }

    private static List<String> codes(RunReport r) {
        return r.blockers().stream().map(Blocker::code).toList();
    }

    private static final String BOTH = "127.0.0.1:9000=" + ALIAS + ", 127.0.0.2:9000=" + ALIAS;

    @Test
    void anExternalPublicationWithoutArtifactStoreBlocksBeforeAnyConnection() throws Exception {
        RunReport r = run(manifest("external", "MergeTree", false), BOTH);
        assertFalse(r.passed());
        assertEquals(List.of("publication.artifact_store_missing"), codes(r));
        assertEquals("cluster_publication", r.routeId(), "never the local route");
        // nothing but the run's record for `dpone runs` (no journal, staging or spool of a run that never started)
        try (var files = Files.walk(dir.resolve("work"))) {
            assertEquals(List.of(), files.filter(Files::isRegularFile)
                .filter(f -> !dir.resolve("work").relativize(f).startsWith(Path.of("runs", "records"))).toList());
        } catch (java.nio.file.NoSuchFileException none) {
            // nothing at all
        }
    }

    @Test
    void aClusterRunGoesThroughTheClusterPublicationRouteAndStopsAtTheStepThatRefusedIt() throws Exception {
        try (DponeCamel camel = DponeCamel.start(null, true)) {
            RunReport r = new FullRefreshRunner(camel, context("127.0.0.1:9000=" + ALIAS), dir.resolve("work"))
                .run(ManifestLoader.load(manifest("external", "MergeTree", true)), "cluster-run-1",
                    ProgressListener.NONE);
            assertEquals(List.of("publication.member_unresolved"), codes(r));
            ManagedCamelContext managed = camel.context().getCamelContextExtension()
                .getContextPlugin(ManagedCamelContext.class);
            assertEquals(1, managed.getManagedProcessor("cluster_publication.decide").getExchangesCompleted());
            assertEquals(1, managed.getManagedProcessor("cluster_publication.admit").getExchangesFailed());
            assertEquals(0, managed.getManagedProcessor("cluster_publication.publish").getExchangesTotal(),
                "nothing after the refusing step runs");
        }
        assertNothingWritten();
    }

    @Test
    void aModeThatContradictsTheClusterFlagIsRefusedAtAdmission() throws Exception {
        RunReport r = run(manifest("internal", "ReplicatedMergeTree", true), BOTH);
        assertEquals(List.of("publication.internal_replication_mismatch"), codes(r));
        assertNothingWritten();
    }

    @Test
    void anUnmappedMemberIsRefusedByItsOpaqueId() throws Exception {
        RunReport r = run(manifest("external", "MergeTree", true), "127.0.0.1:9000=" + ALIAS);
        assertEquals(List.of("publication.member_unresolved"), codes(r));
        assertTrue(r.blockers().get(0).subject().matches("m-[0-9a-f]{16}"), r.blockers().toString());
        String json = ReportWriter.json(r);
        assertFalse(json.contains("127.0.0."), "no member address in output");
        assertFalse(json.contains(dir.toString()), "no local path in output");
        assertNothingWritten();
    }

    @Test
    void aMissingTargetDatabaseIsRefusedOnEveryMember() throws Exception {
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            ch.execute("DROP DATABASE " + database);
        }
        RunReport r = run(manifest("external", "MergeTree", true), BOTH);
        assertEquals(List.of("publication.database_not_atomic", "publication.database_not_atomic"), codes(r));
    }

    @Test
    void anAdmittedClusterStillNeedsADistributedDdlChannelBeforeAnyExtraction() throws Exception {
        RunReport r = run(manifest("external", "MergeTree", true), BOTH);
        assertEquals(List.of("publication.cluster_ddl_unavailable"), codes(r));
        assertNothingWritten();
    }

    /**
     * The hand-over of a cluster publication waits for its committed receipt: a run refused before it reads the
     * stream position first (kept for the run id) and then hands nothing over: no snapshot record, no checkpoint.
     */
    @Test
    void aClusterPublicationWithoutAReceiptHandsNothingOver() throws Exception {
        try (Connection c = DriverManager.getConnection(h2, "sa", ""); Statement s = c.createStatement()) {
            String fns = io.dpone.demo.DemoCdcFunctions.class.getName();
            s.execute("CREATE SCHEMA cdc");
            s.execute("CREATE SCHEMA IF NOT EXISTS sys");
            s.execute("CREATE TABLE cdc.change_tables (capture_instance NVARCHAR(128), start_lsn BINARY(10))");
            s.execute("CREATE TABLE cdc.lsn_time_mapping (start_lsn BINARY(10), tran_end_time TIMESTAMP)");
            s.execute("INSERT INTO cdc.change_tables VALUES ('dbo_items', X'00000000000000000100')");
            s.execute("CREATE ALIAS sys.fn_cdc_get_max_lsn FOR \"" + fns + ".maxLsn\"");
            s.execute("CREATE ALIAS sys.fn_cdc_get_min_lsn FOR \"" + fns + ".minLsn\"");
        }
        Path manifest = manifest("external", "MergeTree", true);
        Files.writeString(manifest, Files.readString(manifest) + """
            cdc:
              backend: mssql_cdc
              pipeline_name: items-cdc
              log_dataset: %s.items_cdc
              unique_keys: [id]
            """.formatted(database));
        Path wrongKey = Files.writeString(dir.resolve("wrong-key.yaml"), Files.readString(manifest)
            .replace("unique_keys: [id]", "unique_keys: [nope_col]"));
        RunReport refused = run(wrongKey, BOTH);
        assertEquals(List.of("manifest.invalid_value"), codes(refused));
        assertEquals("cdc.unique_keys[0]", refused.blockers().get(0).subject());
        assertFalse(Files.exists(dir.resolve("work/cdc-handover/cluster-run-1.json")), "nothing was read");
        RunReport r = run(manifest, BOTH);
        assertEquals(List.of("publication.cluster_ddl_unavailable"), codes(r));
        String boundary = Files.readString(dir.resolve("work/cdc-handover/cluster-run-1.json"));
        assertTrue(boundary.replace(" ", "").contains("\"position\":\"0x000000000000000000ff\""),
            "the position was read before the snapshot: " + boundary);
        assertNothingWritten();
    }

    private void assertNothingWritten() {
        assertFalse(Files.exists(dir.resolve("artifacts").resolve("receipts")));
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            assertEquals("0", ch.query("SELECT count() FROM system.tables WHERE database = '" + database + "'")
                .get(0).get(0), "no table was created on any member");
        }
    }
}
