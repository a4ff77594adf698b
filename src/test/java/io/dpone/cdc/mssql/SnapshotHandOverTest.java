package io.dpone.cdc.mssql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.Dpone;
import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.CdcOffset;
import io.dpone.cdc.StreamIdentity;
import io.dpone.cdc.clickhouse.CdcMaterializer;
import io.dpone.cdc.clickhouse.ClickHouseOffsetStore;
import io.dpone.cdc.runtime.CdcMode;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.cdc.runtime.CdcRuntime;
import io.dpone.cdc.runtime.CdcRuntimeRunReport;
import io.dpone.cdc.runtime.CdcTickRunner;
import io.dpone.cdc.runtime.ClickHouseCdcAdapters;
import io.dpone.cdc.runtime.LiveCdcRuntime;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.manifest.TableRef;
import io.dpone.publication.artifact.ArtifactFixtures;
import io.dpone.quality.GateResult;
import io.dpone.route.ProgressListener;
import io.dpone.route.RunReport;
import io.dpone.source.JdbcSourceReader;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshot to CDC hand-over with writers that insert, update, delete and change keys while the snapshot is read:
 * {@code dpone run} of a manifest with a {@code cdc} block reads the position first, publishes the snapshot, then
 * commits the stream's first checkpoint; after one tick and a materialization, the serving table equals the source
 * exactly (a full refresh's gates: row count, NULL counts, typed hash over every value).
 */
@io.dpone.testing.EngineTest
class SnapshotHandOverTest {
    static ClickHouseEndpoint ch;

    @TempDir
    Path dir;

    @BeforeAll
    static void open() {
        ch = TestEngines.clickhouse();
    }

    @AfterAll
    static void close() {
        ch.close();
    }

    /**
     * {@code cdc.offset_store: file} commits the stream's first checkpoint into {@code cdc.checkpoint_json} instead of
     * the ClickHouse offsets table, and without {@code checkpoint_json} the run is refused before anything is read.
     */
    @Test
    void aFileOffsetStoreCommitsTheFirstCheckpointIntoCheckpointJson() throws Exception {
        String db = TestEngines.newDatabase("handfile");
        String url = TestEngines.newH2Url();
        try (H2CdcFixture fx = new H2CdcFixture(url)) {
            H2CdcFixture.Txn txn = fx.txn();
            Random r = new Random(3);
            for (int id = 1; id <= 50; id++) {
                txn.insert(LiveServingTableGatesTest.randomRow(r, id));
            }
            txn.commit();
            Path checkpoint = dir.resolve("orders.checkpoint.json");
            String yaml = """
                source:
                  type: mssql
                  connection_ref: %s
                  table: {schema: dbo, name: orders}
                sink:
                  type: clickhouse
                  connection_ref: %s
                  table: {schema: %s, name: orders_snapshot}
                  strategy: {mode: full_refresh}
                cdc:
                  backend: mssql_cdc
                  pipeline_name: orders-file
                  log_dataset: %s.orders_cdc
                  unique_keys: [order_id]
                  offset_store: file
                """.formatted(TestEngines.SOURCE, TestEngines.CLICKHOUSE, db, db);
            RunReport refused = Dpone.run(Manifests.write(dir.resolve("nofile.yaml"), yaml), "handfile-0",
                TestEngines.context(url), ProgressListener.NONE, dir.resolve("state"));
            assertEquals(List.of("cdc.checkpoint_json"), refused.blockers().stream().map(b -> b.subject()).toList());
            RunReport otherInstance = Dpone.run(Manifests.write(dir.resolve("instance.yaml"), yaml
                + "  checkpoint_json: " + checkpoint + "\n  capture_instance: dbo_not_captured\n"), "handfile-i",
                TestEngines.context(url), ProgressListener.NONE, dir.resolve("state"));
            assertFalse(otherInstance.passed(), "cdc.capture_instance names the instance whose position is read");
            assertFalse(java.nio.file.Files.exists(checkpoint), "nothing committed for a capture instance not there");
            RunReport report = Dpone.run(Manifests.write(dir.resolve("file.yaml"), yaml + "  checkpoint_json: "
                + checkpoint + "\n"), "handfile-1", TestEngines.context(url), ProgressListener.NONE,
                dir.resolve("state"));
            assertTrue(report.passed(), String.valueOf(report.blockers()));
            assertTrue(java.nio.file.Files.readString(checkpoint).contains("dpone.cdc_checkpoint.v1"));
            assertEquals("0", ch.query("SELECT count() FROM system.tables WHERE database = '" + db + "' AND name = '"
                + ClickHouseCdcAdapters.OFFSETS_TABLE + "'").get(0).get(0), "the ClickHouse store is not used");
        }
    }

    /**
     * Issue 31 item 4: changes cleaned up before the stream read them make the tick refuse with the re-snapshot
     * command; running the manifest's hand-over under a new run id moves the stale checkpoint to the new snapshot's
     * position, and the stream then continues with the serving table equal to the source.
     */
    @Test
    void aStreamBehindTheCleanupIsResyncedByANewHandOver() throws Exception {
        String db = TestEngines.newDatabase("resync");
        String url = TestEngines.newH2Url();
        Random r = new Random(5);
        try (H2CdcFixture fx = new H2CdcFixture(url)) {
            H2CdcFixture.Txn seed = fx.txn();
            for (int id = 1; id <= 40; id++) {
                seed.insert(LiveServingTableGatesTest.randomRow(r, id));
            }
            seed.commit();
            Path manifest = Manifests.write(dir.resolve("resync.batch.yaml"), """
                source:
                  type: mssql
                  connection_ref: %s
                  table: {schema: dbo, name: orders}
                sink:
                  type: clickhouse
                  connection_ref: %s
                  table: {schema: %s, name: orders_snapshot}
                  strategy: {mode: full_refresh}
                cdc:
                  backend: mssql_cdc
                  pipeline_name: orders-resync
                  log_dataset: %s.orders_cdc
                  unique_keys: [order_id]
                """.formatted(TestEngines.SOURCE, TestEngines.CLICKHOUSE, db, db));
            RunReport first = Dpone.run(manifest, "resync-1", TestEngines.context(url), ProgressListener.NONE,
                dir.resolve("state"));
            assertTrue(first.passed(), String.valueOf(first.blockers()));
            fx.txn().insert(LiveServingTableGatesTest.randomRow(r, 41)).commit();
            byte[] kept = fx.txn().insert(LiveServingTableGatesTest.randomRow(r, 42)).commit();
            fx.cleanupBelow(kept); // row 41's insert is gone before the stream read it

            CdcRunOptions o = CdcRunOptions.builder(CdcMode.live).systems("mssql", "clickhouse")
                .backend(SqlServerCdcReader.BACKEND).pipelineName("orders-resync").sourceTable("dbo", "orders")
                .targetDataset(db + ".orders_cdc").uniqueKeys(List.of("order_id"))
                .connections("mssql_test", "clickhouse_test").build();
            CdcRuntimeRunReport behind = CdcTickRunner.run(LiveCdcRuntime.tick(o, CdcRuntime.newRunId(),
                fx.connection, ch, dir.resolve("spool")));
            assertFalse(behind.passed() || behind.committed());
            assertEquals(CdcBlockers.CDC_RESYNC_REQUIRED, behind.blockers().get(0).code());
            assertTrue(behind.blockers().get(0).message().contains("pipeline orders-resync (dpone run MANIFEST"),
                behind.blockers().get(0).message());

            RunReport again = Dpone.run(manifest, "resync-2", TestEngines.context(url), ProgressListener.NONE,
                dir.resolve("state"));
            assertTrue(again.passed(), String.valueOf(again.blockers()));
            fx.txn().insert(LiveServingTableGatesTest.randomRow(r, 43)).commit();
            CdcRuntimeRunReport resumed = CdcTickRunner.run(LiveCdcRuntime.tick(o, CdcRuntime.newRunId(),
                fx.connection, ch, dir.resolve("spool")));
            assertTrue(resumed.passed() && resumed.committed(), String.valueOf(resumed.blockers()));
            Map<String, Object> m = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(db
                + ".orders_cdc", db + ".orders_serving", List.of("order_id"), CdcMaterializer.DeleteMode.exclude_deleted),
                null);
            assertEquals(true, m.get("passed"), String.valueOf(m.get("blockers")));
            try (JdbcSourceReader reader = ArtifactFixtures.reader(url)) {
                ServingGates.compare(reader, new TableRef("dbo", "orders"), ch, db, "orders_serving")
                    .forEach(g -> assertEquals("passed", g.status(), g.gate() + ": " + g.details()));
            }
        }
    }

    @Test
    void changesDuringTheSnapshotAreNeitherLostNorAppliedTwice() throws Exception {
        String db = TestEngines.newDatabase("handover");
        String url = TestEngines.newH2Url();
        Random r = new Random(42);
        try (H2CdcFixture fx = new H2CdcFixture(url)) {
            List<Object[]> live = new ArrayList<>();
            int nextId = 1;
            for (int t = 0; t < 24; t++) {
                H2CdcFixture.Txn txn = fx.txn();
                for (int k = 0; k < 500; k++) {
                    Object[] row = LiveServingTableGatesTest.randomRow(r, nextId++);
                    txn.insert(row);
                    live.add(row);
                }
                txn.commit();
            }
            Path manifest = Manifests.write(dir.resolve("orders.batch.yaml"), """
                name: orders-handover
                source:
                  type: mssql
                  connection_ref: %s
                  table: {schema: dbo, name: orders}
                  options: {fetch_size: 500, chunk_rows: 1000}
                sink:
                  type: clickhouse
                  connection_ref: %s
                  table: {schema: %s, name: orders_snapshot}
                  staging: {schema: %s}
                  strategy: {mode: full_refresh}
                  options: {lineage: false}
                cdc:
                  backend: mssql_cdc
                  pipeline_name: orders-handover
                  log_dataset: %s.orders_cdc
                  unique_keys: [order_id]
                """.formatted(TestEngines.SOURCE, TestEngines.CLICKHOUSE, db, db, db));

            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger written = new AtomicInteger();
            AtomicReference<Throwable> failed = new AtomicReference<>();
            int[] next = {nextId};
            Thread writer = new Thread(() -> {
                Random w = new Random(7);
                try {
                    while (!stop.get()) {
                        H2CdcFixture.Txn txn = fx.txn();
                        for (int k = 0; k < 1 + w.nextInt(4); k++) {
                            int op = w.nextInt(4);
                            int at = w.nextInt(live.size());
                            Object[] before = live.get(at);
                            if (op == 0) {
                                Object[] row = LiveServingTableGatesTest.randomRow(w, next[0]++);
                                txn.insert(row);
                                live.add(row);
                            } else if (op == 1) {
                                Object[] after = LiveServingTableGatesTest.randomRow(w, (Integer) before[0]);
                                txn.update(before, after);
                                live.set(at, after);
                            } else if (op == 2 && live.size() > 1) {
                                txn.delete(before);
                                live.remove(at);
                            } else {
                                Object[] moved = LiveServingTableGatesTest.randomRow(w, next[0]++);
                                txn.updateKey(before, moved);
                                live.set(at, moved);
                            }
                        }
                        txn.commit();
                        written.incrementAndGet();
                        Thread.sleep(2); // a writer paced on purpose: commits keep coming during the run
                    }
                } catch (Throwable e) {
                    failed.set(e);
                }
            }, "source-writer");
            writer.start();
            RunReport report;
            int before;
            try {
                io.dpone.testing.Await.until(java.time.Duration.ofSeconds(60), "the writer's first commits",
                    () -> written.get() >= 5 || failed.get() != null);
                before = written.get();
                report = Dpone.run(manifest, "handover-1", TestEngines.context(url), ProgressListener.NONE,
                    dir.resolve("state"));
            } finally {
                stop.set(true);
                writer.join();
            }
            int during = written.get() - before;
            assertEquals(null, failed.get());
            assertTrue(report.passed(), String.valueOf(report.blockers()));
            assertTrue(report.notes().stream().anyMatch(n -> n.startsWith("cdc hand-over: stream orders-handover")),
                String.valueOf(report.notes()));
            assertTrue(during > 0, "the writer committed while the snapshot was read");

            StreamIdentity stream = new StreamIdentity("orders-handover", SqlServerCdcReader.BACKEND, "dbo", "orders",
                db + ".orders_cdc", List.of("order_id"));
            CdcOffset first = new ClickHouseOffsetStore(ch, db, ClickHouseCdcAdapters.OFFSETS_TABLE).load(stream)
                .orElseThrow();
            assertTrue(first.snapshotComplete());

            CdcRunOptions o = CdcRunOptions.builder(CdcMode.live).systems("mssql", "clickhouse")
                .backend(SqlServerCdcReader.BACKEND).pipelineName("orders-handover").sourceTable("dbo", "orders")
                .targetDataset(db + ".orders_cdc").uniqueKeys(List.of("order_id"))
                .connections("mssql_test", "clickhouse_test").maxEvents(1_000_000).build();
            CdcRuntimeRunReport tick = CdcTickRunner.run(LiveCdcRuntime.tick(o, CdcRuntime.newRunId(), fx.connection,
                ch, dir.resolve("spool")));
            assertTrue(tick.passed() && tick.committed(), String.valueOf(tick.blockers()));
            assertTrue(tick.counts().applied() > 0, "changes after the hand-over position were replayed");
            assertEquals(0, tick.counts().replayed(), "the stream starts after the position: nothing at or below it");

            Map<String, Object> m = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(db
                + ".orders_cdc", db + ".orders_serving", List.of("order_id"), CdcMaterializer.DeleteMode.exclude_deleted),
                null);
            assertEquals(true, m.get("passed"), String.valueOf(m.get("blockers")));
            try (JdbcSourceReader reader = ArtifactFixtures.reader(url)) {
                List<GateResult> gates = ServingGates.compare(reader, new TableRef("dbo", "orders"), ch, db,
                    "orders_serving");
                gates.forEach(g -> assertEquals("passed", g.status(), g.gate() + ": " + g.details()));
            }
            List<List<String>> ops = ch.query("SELECT countIf(dpone_cdc_operation = 'snapshot') > 0, "
                + "countIf(dpone_cdc_operation != 'snapshot') > 0 FROM " + ClickHouseSql.table(db, "orders_serving"));
            assertEquals(List.of(List.of("1", "1")), ops, "rows of both the snapshot and the stream");
            System.out.println("hand-over: " + during + " source transactions during the run, " + tick.counts()
                .applied() + " changes replayed from position " + first.token());
        }
    }
}
