package io.dpone.route;

import io.dpone.camel.DponeCamel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.Dpone;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.error.Blocker;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@io.dpone.testing.EngineTest
class FullRefreshRouteTest {
    @TempDir
    Path dir;
    String h2;
    String db;
    Connection source;
    ClickHouseEndpoint ch;

    @BeforeEach
    void setUp() throws Exception {
        h2 = TestEngines.newH2Url();
        db = TestEngines.newDatabase("frt");
        source = DriverManager.getConnection(h2, "sa", "");
        DemoSalesGenerator.seed(source, 3_000, 7);
        ch = TestEngines.clickhouse();
    }

    @AfterEach
    void tearDown() throws Exception {
        ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        ch.close();
        source.close();
    }

    private RunReport run(String runId) {
        Path manifest = Manifests.fullRefresh(dir, "sales", db, "order_by: [sale_id]");
        return Dpone.run(manifest, runId, TestEngines.context(h2), ProgressListener.NONE, dir.resolve("state"));
    }

    private long count(String where) {
        return Long.parseLong(ch.query("SELECT count() FROM " + ClickHouseSql.table(db, "sales") + where)
            .get(0).get(0));
    }

    @Test
    void loadsEveryRowWithGreenGatesAndLeavesNothingBehind() {
        RunReport r = run("run-1");
        assertTrue(r.passed(), () -> r.blockers().toString());
        assertEquals(3_000, r.loadedRows());
        assertEquals(3_000, r.sourceRows());
        assertTrue(r.chunks() >= 5, "700-row chunks must split the load");
        assertEquals(List.of("row_count", "null_counts", "distinct_counts", "typed_hash", "decimal_fidelity",
            "float_fidelity", "unicode_fidelity", "metadata_columns", "cleanup_audit"),
            r.gates().stream().map(g -> g.gate()).toList());
        assertEquals(List.of("distinct_counts"), r.gates().stream().filter(g -> !g.status().equals("passed"))
            .map(g -> g.gate()).toList(), "only the unconfigured distinct gate may be skipped");
        assertEquals("skipped", r.gates().get(2).status());
        assertEquals(3_000, count(" WHERE __dpone__run_id = 'run-1'"));
        assertEquals(List.of(List.of("sales")), ch.query("SELECT name FROM system.tables WHERE database = "
            + ClickHouseSql.literal(db)));
        assertFalse(dir.resolve("state/spool").toFile().list() != null
            && dir.resolve("state/spool").toFile().list().length > 0, "spool must be empty");
    }

    /**
     * The Parquet routes time the Parquet writer apart from the source read, in chunks of columnar_fast_path.chunk_rows;
     * the streaming routes have no such step.
     */
    @Test
    void parquetRoutesTimeTheParquetWriteApartFromTheSourceRead() throws Exception {
        Path columnar = Manifests.fullRefresh(dir, "sales", db, "order_by: [sale_id]\nroute: direct_push_columnar.chunked");
        java.nio.file.Files.writeString(columnar, java.nio.file.Files.readString(columnar).replace("chunk_rows: 700}",
            "chunk_rows: 700, native_transfer: {snapshot: {columnar_fast_path: {chunk_rows: 1000}}}}"));
        RunReport parquet = Dpone.run(columnar, "run-pq", TestEngines.context(h2), ProgressListener.NONE,
            dir.resolve("state"));
        assertTrue(parquet.passed(), () -> parquet.blockers().toString());
        assertTrue(parquet.stepMillis().containsKey("parquet_write"), parquet.stepMillis()::toString);
        assertTrue(parquet.stepMillis().containsKey("source_read"), parquet.stepMillis()::toString);
        RunReport binary = run("run-rb");
        assertTrue(binary.passed(), () -> binary.blockers().toString());
        assertTrue(binary.stepMillis().containsKey("source_read"), binary.stepMillis()::toString);
        assertFalse(binary.stepMillis().containsKey("parquet_write"), binary.stepMillis()::toString);
        assertEquals(3, parquet.chunks(), "columnar_fast_path.chunk_rows sizes the Parquet chunks");
        assertEquals(5, binary.chunks(), "source.options.chunk_rows sizes the others");
    }

    /** A bulk mode the sink cannot give (HTTP to the in-process engine) is refused before anything is written. */
    @Test
    void aBulkModeThatIsNotTheSinksTransportIsRefusedBeforeAnySideEffect() {
        Path manifest = Manifests.fullRefresh(dir, "sales", db, "clickhouse_bulk: {mode: http}");
        RunReport r = Dpone.run(manifest, "run-http", TestEngines.context(h2), ProgressListener.NONE,
            dir.resolve("state"));
        assertFalse(r.passed());
        assertEquals(List.of("manifest.option_unsupported"), r.blockers().stream().map(Blocker::code).toList());
        assertEquals("sink.options.clickhouse_bulk.mode", r.blockers().get(0).subject());
        assertEquals(List.of(), ch.query("SELECT name FROM system.tables WHERE database = " + ClickHouseSql.literal(db)));
        Path client = Manifests.fullRefresh(dir, "sales", db, "clickhouse_bulk: {mode: client}");
        RunReport ok = Dpone.run(client, "run-client", TestEngines.context(h2), ProgressListener.NONE,
            dir.resolve("state"));
        assertTrue(ok.passed(), () -> ok.blockers().toString());
    }

    /** quality.typed_hash off skips the gate (never passes it); sampled hashes one key bucket in hash_sample_modulo. */
    @Test
    void typedHashModeAndSampleModuloDecideWhatTheTypedHashGateHashes() throws Exception {
        java.util.Map<String, io.dpone.quality.GateResult> gate = new java.util.HashMap<>();
        for (String quality : List.of("typed_hash: 'off'", "typed_hash: sampled\n  hash_sample_modulo: 4",
                "typed_hash: full")) {
            Path manifest = Manifests.fullRefresh(dir, "sales", db, "order_by: [sale_id]");
            java.nio.file.Files.writeString(manifest, java.nio.file.Files.readString(manifest) + "quality:\n  "
                + quality + "\n");
            RunReport r = Dpone.run(manifest, "run-q" + gate.size(), TestEngines.context(h2), ProgressListener.NONE,
                dir.resolve("state"));
            assertTrue(r.passed(), () -> quality + " " + r.blockers());
            gate.put(quality.substring(0, quality.indexOf('\n') < 0 ? quality.length() : quality.indexOf('\n')),
                r.gates().stream().filter(g -> g.gate().equals("typed_hash")).findFirst().orElseThrow());
        }
        assertEquals("skipped", gate.get("typed_hash: 'off'").status());
        long sampled = ((Number) gate.get("typed_hash: sampled").details().get("source_rows_hashed")).longValue();
        assertTrue(sampled > 0 && sampled < 3_000, "a sample: " + sampled);
        assertEquals(3_000L, ((Number) gate.get("typed_hash: full").details().get("source_rows_hashed")).longValue());
    }

    /**
     * A crash between writing and renaming the run journal leaves a temporary file beside it: the next attempt of
     * the run id removes it, and cleanup_audit counts any it could not remove (here a directory in its place).
     */
    @Test
    void journalTempFilesAreRemovedByTheNextAttemptAndCountedByTheCleanupAudit() throws Exception {
        Path runs = dir.resolve("state/runs");
        java.nio.file.Files.createDirectories(runs);
        String journal = RunPlan.keyOf("run-1") + ".json";
        Path crashed = java.nio.file.Files.writeString(runs.resolve("." + journal + "8812.tmp"), "{\"partial");
        RunReport r = run("run-1");
        assertTrue(r.passed(), () -> r.blockers().toString());
        assertFalse(java.nio.file.Files.exists(crashed), "the crashed attempt's temp file is removed");
        assertEquals(0L, ((Number) r.gates().get(8).details().get("journal_temps_left")).longValue());
        Path stuck = java.nio.file.Files.createDirectories(runs.resolve("." + RunPlan.keyOf("run-2") + ".json1.tmp"));
        java.nio.file.Files.writeString(stuck.resolve("x"), "x");
        RunReport second = run("run-2");
        assertFalse(second.passed());
        assertEquals(List.of("quality.stale_artifacts"), second.blockers().stream().map(Blocker::code).toList());
        var audit = second.gates().stream().filter(g -> g.gate().equals("cleanup_audit")).findFirst().orElseThrow();
        assertEquals("failed", audit.status());
        assertEquals(1L, ((Number) audit.details().get("journal_temps_left")).longValue());
    }

    @Test
    void secondRunReplacesTheTargetAtomically() throws Exception {
        assertTrue(run("run-1").passed());
        try (Statement st = source.createStatement()) {
            st.execute("DELETE FROM dbo.sales WHERE sale_id > 2000");
        }
        RunReport second = run("run-2");
        assertTrue(second.passed(), () -> second.blockers().toString());
        assertEquals(2_000, count(""));
        assertEquals(0, count(" WHERE __dpone__run_id != 'run-2'"));
    }

    @Test
    void rerunOfAPublishedRunIdIsRecognisedAndLoadsNothingTwice() {
        assertTrue(run("run-1").passed());
        RunReport again = run("run-1");
        assertTrue(again.passed(), () -> again.blockers().toString());
        assertTrue(again.resumedAfterPublish());
        assertEquals(0, again.loadedRows());
        assertEquals(3_000, count(""));
    }

    @Test
    void failedRunNeverTouchesTheTarget() throws Exception {
        assertTrue(run("run-1").passed());
        try (Statement st = source.createStatement()) {
            st.execute("UPDATE dbo.sales SET sale_date = DATE '1850-01-01' WHERE sale_id = 1500");
        }
        RunReport bad = run("run-2");
        assertFalse(bad.passed());
        assertEquals(List.of("source.value_out_of_range"), bad.blockers().stream().map(Blocker::code).toList());
        assertEquals("source.columns.sale_date", bad.blockers().get(0).subject());
        assertEquals(3_000, count(" WHERE __dpone__run_id = 'run-1'"));
        assertEquals(1, ch.query("SELECT name FROM system.tables WHERE database = " + ClickHouseSql.literal(db))
            .size(), "the failed run's staging table must be dropped");
    }

    @Test
    void maxSourceBytesStopsTheRunBeforePublication() {
        Path manifest = Manifests.write(dir.resolve("small.yaml"), """
            source: {type: mssql, connection_ref: mssql_test, table: {schema: dbo, name: sales}}
            sink:
              type: clickhouse
              connection_ref: clickhouse_test
              table: {schema: %s, name: sales}
              strategy: {mode: full_refresh, max_source_bytes: 1000}
            """.formatted(db));
        RunReport r = Dpone.run(manifest, "tiny", TestEngines.context(h2), ProgressListener.NONE, dir);
        assertFalse(r.passed());
        assertEquals("source.max_source_bytes_exceeded", r.blockers().get(0).code());
        assertEquals(0, Long.parseLong(ch.query("SELECT count() FROM system.tables WHERE database = "
            + ClickHouseSql.literal(db)).get(0).get(0)));
    }

    @Test
    void aRouteMissingFromTheRuntimeIsATypedBlockerBeforeAnySideEffect() throws Exception {
        Path manifest = Manifests.fullRefresh(dir, "sales", db, "route: typed_raw_streaming");
        RunReport r;
        try (DponeCamel camel = DponeCamel.start(null, false)) {
            camel.context().getRouteController().stopRoute("typed_raw_streaming");
            camel.context().removeRoute("typed_raw_streaming");
            r = new FullRefreshRunner(camel, TestEngines.context(h2), dir)
                .run(io.dpone.manifest.ManifestLoader.load(manifest), "no-route", ProgressListener.NONE);
        } catch (io.dpone.error.DponeException e) {
            r = null;
            assertEquals("run.route_unavailable", e.blockers().get(0).code());
            assertEquals("sink.options.route", e.blockers().get(0).subject());
        }
        assertEquals(null, r, "the runner refuses before running");
        assertEquals(List.of(), ch.query("SELECT name FROM system.databases WHERE name = " + ClickHouseSql.literal(db)));
    }

    @Test
    void orderByANullableColumnIsRefusedWithItsManifestPath() {
        Path manifest = Manifests.fullRefresh(dir, "sales", db, "order_by: [sale_id, note]");
        RunReport r = Dpone.run(manifest, "bad-key", TestEngines.context(h2), ProgressListener.NONE, dir);
        assertFalse(r.passed());
        assertEquals(List.of("manifest.invalid_value@sink.options.order_by[1]"),
            r.blockers().stream().map(b -> b.code() + "@" + b.subject()).toList());
    }

    @Test
    void rowsWhoseLastByteIsANewlineHashTheSameOnBothSides() throws Exception {
        try (Statement st = source.createStatement()) {
            st.execute("CREATE TABLE dbo.trailing (id BIGINT NOT NULL PRIMARY KEY, n SMALLINT NOT NULL, t NVARCHAR(20))");
            st.execute("INSERT INTO dbo.trailing VALUES (1, 2560, 'ends with newline\n'), (2, 10, 'x\n'), (3, 2570, NULL)");
        }
        // regression: formatRowNoNewline drops a trailing 0x0A byte, which made such rows hash differently
        Path manifest = Manifests.fullRefresh(dir, "trailing", db, null);
        RunReport r = Dpone.run(manifest, "nl-1", TestEngines.context(h2), ProgressListener.NONE, dir);
        assertTrue(r.passed(), () -> r.blockers().toString());
    }
}
