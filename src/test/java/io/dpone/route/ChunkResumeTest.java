package io.dpone.route;

import static io.dpone.testing.FullRefreshFixture.crashAfter;
import static io.dpone.testing.FullRefreshFixture.stopBefore;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.manifest.BatchManifest;
import io.dpone.manifest.ManifestLoader;
import io.dpone.testing.FullRefreshFixture;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.nio.file.Path;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.apache.camel.Processor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Chunk-level resume ({@link StagingResume}): an attempt killed (the failure step disabled, as when the process
 * dies) or stopped at a chunk boundary leaves its staging table; the next attempt with the same run id loads only
 * the rows the staging table lacks, and the gates still cover the whole table.
 */
@io.dpone.testing.EngineTest
class ChunkResumeTest {
    static final int ROWS = 5_000;
    static final int CHUNK_ROWS = 700;
    static final String RUN = "gen-1";

    @TempDir
    Path dir;
    @RegisterExtension
    final FullRefreshFixture fx = new FullRefreshFixture("chunkresume",
        src -> DemoSalesGenerator.seed(src, ROWS, 23));

    @ParameterizedTest(name = "parallel_readers {0}")
    @ValueSource(ints = {1, 3})
    void aKilledRunResumesFromTheRowsItsStagingHolds(int readers) {
        BatchManifest m = manifest("sales", readers);
        assertFalse(runOnce(m, Map.of("failedRun", (Processor) e -> { }, "loadChunk", crashAfter(3))).passed());
        assertEquals(3 * CHUNK_ROWS, stagedRows("sales"), "three chunks were loaded before the kill");

        RunReport resumed = runOnce(m, Map.of());
        assertTrue(resumed.passed(), () -> resumed.blockers().toString());
        assertEquals(new RunReport.ResumedStaging(3 * CHUNK_ROWS, 3), resumed.resumedStaging());
        assertEquals(ROWS, resumed.sourceRows(), "the gates' source side covers the whole table");
        assertEquals(ROWS - 3 * CHUNK_ROWS, resumed.loadedRows(), "only the missing rows are loaded");
        assertTargetExact("sales");
        assertTrue(resumed.gates().stream().anyMatch(g -> g.gate().equals("typed_hash") && !g.isFailed()),
            () -> resumed.gates().toString());
    }

    @Test
    void rowsOfAChunkWhoseInsertWasCutShortAreCompletedByKey() {
        BatchManifest m = manifest("sales", 1);
        runOnce(m, Map.of("failedRun", (Processor) e -> { }, "loadChunk", crashAfter(4)));
        // what a kill in the middle of a chunk's insert can leave: some of its rows, in no particular pattern (the
        // killed attempt stopped merges on its staging table, which a delete's mutation needs: a new process has
        // them running, this one is told)
        fx.clickhouse().execute("SYSTEM START MERGES " + staging("sales"));
        fx.clickhouse().execute("DELETE FROM " + staging("sales") + " WHERE sale_id % 3 = 0 AND sale_id > 1500");
        long kept = stagedRows("sales");
        assertTrue(kept < 4 * CHUNK_ROWS && kept > 0);

        RunReport resumed = runOnce(m, Map.of());
        assertTrue(resumed.passed(), () -> resumed.blockers().toString());
        assertEquals(kept, resumed.resumedStaging().rowsKept());
        assertEquals(ROWS - kept, resumed.loadedRows());
        assertTargetExact("sales");
    }

    @Test
    void aKeptRowChangedInTheSourceSinceFailsTheGatesAndTheNextAttemptLoadsEverything() throws Exception {
        BatchManifest m = manifest("sales", 1);
        runOnce(m, Map.of("failedRun", (Processor) e -> { }, "loadChunk", crashAfter(2)));
        String keptKey = fx.clickhouse().query("SELECT min(sale_id) FROM " + staging("sales")).get(0).get(0);
        try (Statement st = fx.source().createStatement()) {
            st.execute("UPDATE dbo.sales SET quantity = COALESCE(quantity, 0) + 1 WHERE sale_id = " + keptKey);
        }

        RunReport resumed = runOnce(m, Map.of());
        assertFalse(resumed.passed(), "a kept row that no longer matches the source must fail the gates");
        assertTrue(resumed.gates().stream().anyMatch(g -> g.isFailed()
            && g.blocker().code().equals(BlockerCode.QUALITY_TYPED_HASH_MISMATCH.code())), resumed.gates()::toString);
        assertFalse(stagingExists("sales"), "a failed attempt drops its staging table");

        RunReport again = runOnce(m, Map.of());
        assertTrue(again.passed(), () -> again.blockers().toString());
        assertNull(again.resumedStaging());
        assertEquals(ROWS, again.loadedRows());
    }

    @Test
    void aStopAtAChunkBoundaryKeepsTheStagingAndAFailureDropsIt() {
        BatchManifest m = manifest("sales", 1);
        RunReport stopped = runOnce(m, Map.of("loadChunk", stopBefore(3)));
        assertFalse(stopped.passed());
        assertEquals(List.of(BlockerCode.SERVE_SHUTDOWN_INTERRUPTED.code()),
            stopped.blockers().stream().map(Blocker::code).toList());
        assertEquals(2 * CHUNK_ROWS, stagedRows("sales"), "the stop keeps what was loaded");

        RunReport failed = runOnce(m, Map.of("loadChunk", crashAfter(1)));
        assertFalse(failed.passed());
        assertFalse(stagingExists("sales"), "an ordinary failure drops the staging table");

        runOnce(m, Map.of("loadChunk", stopBefore(3)));
        RunReport resumed = runOnce(m, Map.of());
        assertTrue(resumed.passed(), () -> resumed.blockers().toString());
        assertEquals(new RunReport.ResumedStaging(2 * CHUNK_ROWS, 2), resumed.resumedStaging());
        assertTargetExact("sales");
    }

    @Test
    void aStagingTableOfAnotherShapeIsDroppedWithANote() {
        runOnce(manifest("sales", 1), Map.of("failedRun", (Processor) e -> { }, "loadChunk", crashAfter(2)));
        BatchManifest fewer = load(Manifests.write(dir.resolve("fewer.batch.yaml"), """
            name: test-full-refresh
            source:
              type: mssql
              connection_ref: %s
              table: {schema: dbo, name: sales}
              columns: [sale_id, quantity]
              options: {fetch_size: 1000, chunk_rows: %d}
            sink:
              type: clickhouse
              connection_ref: %s
              table: {schema: %s, name: sales}
              staging: {schema: %s}
              strategy: {mode: full_refresh}
              options: {lineage: false, order_by: [sale_id]}
            """.formatted(TestEngines.SOURCE, CHUNK_ROWS, TestEngines.CLICKHOUSE, fx.db(), fx.db())));

        RunReport resumed = runOnce(fewer, Map.of());
        assertTrue(resumed.passed(), () -> resumed.blockers().toString());
        assertNull(resumed.resumedStaging());
        assertEquals(ROWS, resumed.loadedRows());
        assertTrue(resumed.notes().stream().anyMatch(n -> n.contains("columns differ")), resumed.notes()::toString);
    }

    @Test
    void aTableWithoutAnIntegerKeyLoadsFromTheFirstChunk() throws Exception {
        try (Statement st = fx.source().createStatement()) {
            st.execute("CREATE TABLE dbo.nokey AS SELECT * FROM dbo.sales");
        }
        BatchManifest m = load(Manifests.fullRefresh(dir, "nokey", fx.db(), ""));
        runOnce(m, Map.of("failedRun", (Processor) e -> { }, "loadChunk", crashAfter(2)));
        assertTrue(stagingExists("nokey"));

        RunReport resumed = runOnce(m, Map.of());
        assertTrue(resumed.passed(), () -> resumed.blockers().toString());
        assertNull(resumed.resumedStaging());
        assertEquals(ROWS, resumed.loadedRows());
        assertTrue(resumed.notes().stream().anyMatch(n -> n.contains("primary key")), resumed.notes()::toString);
        assertTargetExact("nokey");
    }

    private BatchManifest manifest(String table, int readers) {
        return load(Manifests.write(dir.resolve(table + "-" + readers + ".batch.yaml"), """
            name: test-full-refresh
            source:
              type: mssql
              connection_ref: %s
              table: {schema: dbo, name: %s}
              options: {fetch_size: 1000, chunk_rows: %d, parallel_readers: %d, parallel_min_rows: 1}
            sink:
              type: clickhouse
              connection_ref: %s
              table: {schema: %s, name: %s}
              staging: {schema: %s}
              strategy: {mode: full_refresh}
              options: {lineage: false, order_by: [sale_id]}
            """.formatted(TestEngines.SOURCE, table, CHUNK_ROWS, readers, TestEngines.CLICKHOUSE, fx.db(), table,
                fx.db())));
    }

    private static BatchManifest load(Path file) {
        return ManifestLoader.load(file);
    }

    private RunReport runOnce(BatchManifest m, Map<String, Object> overrides) {
        return fx.run(m, RUN, dir.resolve("state"), overrides);
    }

    private void assertTargetExact(String table) {
        long sum = (long) ROWS * (ROWS + 1) / 2;
        assertEquals(List.of(List.of(String.valueOf(ROWS), String.valueOf(ROWS), String.valueOf(sum), RUN)),
            fx.clickhouse().query("SELECT count(), uniqExact(sale_id), sum(sale_id), any(__dpone__run_id) FROM "
                + ClickHouseSql.table(fx.db(), table)));
        assertFalse(stagingExists(table), "the staging table is published, not left behind");
    }

    private String staging(String table) {
        return fx.staging(table, RUN);
    }

    private boolean stagingExists(String table) {
        return fx.stagingExists(table, RUN);
    }

    private long stagedRows(String table) {
        return fx.stagedRows(table, RUN);
    }
}
