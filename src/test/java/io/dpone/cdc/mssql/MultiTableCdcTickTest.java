package io.dpone.cdc.mssql;

import static io.dpone.cdc.mssql.H2MultiTableCdcFixture.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.cdc.clickhouse.CdcMaterializer;
import io.dpone.cdc.runtime.CdcMode;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.cdc.runtime.CdcRuntime;
import io.dpone.cdc.runtime.CdcRuntimeRunReport;
import io.dpone.cdc.runtime.CdcTickRunner;
import io.dpone.cdc.runtime.LiveCdcRuntime;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.manifest.TableRef;
import io.dpone.publication.artifact.ArtifactFixtures;
import io.dpone.quality.GateResult;
import io.dpone.source.JdbcSourceReader;
import io.dpone.testing.TestEngines;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.testing.CliRun;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stream of several tables (issue 31 item 2) on the embedded default: the H2 CDC emulation and the embedded
 * ClickHouse. One tick reads every table up to one commit LSN, applies each table's changes to its own log and
 * commits one offset; a transaction spanning tables is never split across ticks, even when it is larger than the
 * per-tick cap.
 */
@io.dpone.testing.EngineTest
class MultiTableCdcTickTest {
    static final List<String> TABLES = List.of("customers", "orders", "items");
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

    @AfterEach
    void clearContext() {
        io.dpone.testing.LiveCdcContext.clear();
    }

    static CdcRunOptions options(String db, int maxEvents) {
        List<CdcRunOptions.Table> tables = new ArrayList<>();
        for (String t : TABLES) {
            tables.add(new CdcRunOptions.Table("dbo", t, db + "." + t + "_cdc", List.of("id")));
        }
        return CdcRunOptions.builder(CdcMode.live).systems("mssql", "clickhouse").backend(SqlServerCdcReader.BACKEND)
            .pipelineName("shop-live").tables(tables).connections("mssql_test", "clickhouse_test")
            .maxEvents(maxEvents).build();
    }

    CdcRuntimeRunReport tick(CdcRunOptions o, H2MultiTableCdcFixture fx) {
        return CdcTickRunner.run(LiveCdcRuntime.tick(o, CdcRuntime.newRunId(), fx.connection, ch,
            dir.resolve("spool")));
    }

    long logRowsAt(String db, String table, byte[] lsn) {
        return Long.parseLong(ch.query("SELECT count() FROM " + ClickHouseSql.table(db, table + "_cdc")
            + " WHERE dpone_cdc_position = " + ClickHouseSql.literal(new Lsn(new java.math.BigInteger(1, lsn)).hex()))
            .get(0).get(0));
    }

    boolean logExists(String db, String table) {
        return !ch.query("SELECT name FROM system.tables WHERE database = " + ClickHouseSql.literal(db)
            + " AND name = " + ClickHouseSql.literal(table + "_cdc")).isEmpty();
    }

    @Test
    void aThreeTableStreamLandsEachTableExactlyAndATransactionSpanningTwoTablesIsNeverSplitAcrossTicks()
        throws Exception {
        String db = TestEngines.newDatabase("cdc_multi");
        String url = TestEngines.newH2Url();
        try (H2MultiTableCdcFixture fx = new H2MultiTableCdcFixture(url, TABLES.toArray(String[]::new))) {
            int total = 0;
            H2MultiTableCdcFixture.Txn t1 = fx.txn().insert("customers", row(1, "ann", "10.00"))
                .insert("customers", row(2, "bob", "20.00")).insert("customers", row(3, "cy", "30.00"));
            total += t1.rows();
            t1.commit();
            // the transaction spanning two tables, larger than the per-tick cap of 5
            H2MultiTableCdcFixture.Txn big = fx.txn();
            for (int i = 1; i <= 4; i++) {
                big.insert("orders", row(i, "order " + i, i + ".50")).insert("items", row(i, "item " + i, "1.00"));
            }
            int bigRows = big.rows();
            total += bigRows;
            byte[] bigLsn = big.commit();
            H2MultiTableCdcFixture.Txn t3 = fx.txn().update("customers", row(1, "ann", "10.00"), row(1, "ann", "11.00"))
                .delete("orders", row(2, "order 2", "2.50"));
            total += t3.rows();
            t3.commit();
            H2MultiTableCdcFixture.Txn t4 = fx.txn().insert("items", row(5, "item 5", "5.00"))
                .insert("items", row(6, "item 6", null));
            total += t4.rows();
            t4.commit();
            H2MultiTableCdcFixture.Txn t5 = fx.txn().update("orders", row(3, "order 3", "3.50"),
                    row(3, "order 3 paid", "3.50")).insert("customers", row(4, "dee", null))
                .update("items", row(1, "item 1", "1.00"), row(1, "item 1", "2.00"));
            total += t5.rows();
            t5.commit();
            assertTrue(bigRows > 5, "the spanning transaction is larger than the cap");

            CdcRunOptions o = options(db, 5);
            int applied = 0;
            int ticks = 0;
            boolean tookTheBigOneWhole = false;
            for (int i = 0; i < 20; i++) {
                CdcRuntimeRunReport r = tick(o, fx);
                assertTrue(r.passed(), String.valueOf(r.blockers()));
                if (r.counts().read() == 0) {
                    break;
                }
                ticks++;
                assertTrue(r.committed(), r.commitOutcome());
                // a multi-table tick ends on a commit LSN: its resume holds only each table's state
                JsonNode state = new ObjectMapper().readTree(String.valueOf(r.offsetAfter().get("resume")));
                assertEquals(List.of("tables"), iterable(state.fieldNames()));
                assertEquals(TABLES.size(), state.path("tables").size());
                assertTrue(r.counts().read() <= 5 || r.counts().read() == bigRows,
                    "bounded by the cap, except one transaction taken whole: " + r.counts().read());
                tookTheBigOneWhole |= r.counts().read() == bigRows;
                // the spanning transaction is in both logs entirely or not at all
                long landed = (logExists(db, "orders") ? logRowsAt(db, "orders", bigLsn) : 0)
                    + (logExists(db, "items") ? logRowsAt(db, "items", bigLsn) : 0);
                assertTrue(landed == 0 || landed == bigRows, "after tick " + ticks + ": " + landed);
                // per-table figures add up to the tick's
                assertEquals(TABLES.size(), r.tables().size());
                assertEquals(r.counts().read(), r.tables().stream().mapToInt(t -> t.counts().read()).sum());
                assertEquals(r.counts().applied(), r.tables().stream().mapToInt(t -> t.counts().applied()).sum());
                applied += r.counts().applied();
            }
            assertTrue(ticks >= 3, "several ticks: " + ticks);
            assertTrue(tookTheBigOneWhole);
            assertEquals(total, applied);

            CdcRuntimeRunReport idle = tick(o, fx);
            assertTrue(idle.passed() && !idle.committed(), idle.commitOutcome());
            assertEquals(List.of("dbo.customers", "dbo.orders", "dbo.items"),
                idle.tables().stream().map(CdcRuntimeRunReport.TableFigures::sourceTable).toList());
            idle.tables().forEach(t -> assertEquals(0, t.millisBehindSource(), t.sourceTable()));

            try (JdbcSourceReader reader = ArtifactFixtures.reader(url)) {
                for (String t : TABLES) {
                    Map<String, Object> m = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(
                        db + "." + t + "_cdc", db + "." + t, List.of("id"), CdcMaterializer.DeleteMode.exclude_deleted),
                        null);
                    assertEquals(true, m.get("passed"), String.valueOf(m.get("blockers")));
                    List<GateResult> gates = ServingGates.compare(reader, new TableRef("dbo", t), ch, db, t);
                    gates.forEach(g -> assertEquals("passed", g.status(), t + " " + g.gate() + ": " + g.details()));
                }
            }
        }
    }

    private static List<String> iterable(java.util.Iterator<String> it) {
        List<String> out = new ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }

    @Test
    void aTickStopsBeforeTheTransactionThatWouldCrossTheCapAndThePerTableLagNamesTheTableLeftBehind()
        throws Exception {
        String db = TestEngines.newDatabase("cdc_multi_cap");
        try (H2MultiTableCdcFixture fx = new H2MultiTableCdcFixture(TestEngines.newH2Url(),
                TABLES.toArray(String[]::new))) {
            fx.txn().insert("customers", row(1, "ann", "1.00")).insert("orders", row(1, "o", "1.00")).commit();
            fx.txn().insert("items", row(1, "i", "1.00")).insert("orders", row(2, "o", "2.00")).commit();
            CdcRuntimeRunReport first = tick(options(db, 3), fx);
            assertTrue(first.passed() && first.committed(), String.valueOf(first.blockers()));
            assertEquals(2, first.counts().read(), "the second transaction would make 4 > 3: it waits");
            Map<String, Integer> read = new java.util.LinkedHashMap<>();
            first.tables().forEach(t -> read.put(t.sourceTable(), t.counts().read()));
            assertEquals(Map.of("dbo.customers", 1, "dbo.orders", 1, "dbo.items", 0), read);
            long behind = first.tables().stream().filter(t -> t.sourceTable().equals("dbo.items")).findFirst()
                .orElseThrow().millisBehindSource();
            long customers = first.tables().stream().filter(t -> t.sourceTable().equals("dbo.customers")).findFirst()
                .orElseThrow().millisBehindSource();
            assertTrue(behind >= 0, "items has an unread change: its lag is measured");
            assertEquals(0, customers, "customers has nothing unread");
            // the per-table figures reach JMX and Prometheus as the stream's do
            io.dpone.serve.CdcStreamStats stats = new io.dpone.serve.CdcStreamStats("shop",
                List.of("dbo.customers", "dbo.orders", "dbo.items"));
            var registry = new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
            new io.dpone.serve.ServeMetrics(registry).cdc(stats);
            stats.record(first);
            assertEquals(1.0, registry.get("dpone.cdc.table.events.applied").tags("stream", "shop", "table",
                "dbo.orders").functionCounter().count());
            assertEquals(0.0, registry.get("dpone.cdc.table.events.read").tags("stream", "shop", "table",
                "dbo.items").functionCounter().count());
            assertEquals(0.0, registry.get("dpone.cdc.table.behind.source").tags("stream", "shop", "table",
                "dbo.customers").gauge().value());
            assertTrue(stats.getTables().startsWith("dbo.customers read=1 applied=1 behind_ms=0 blockers="),
                stats.getTables());
            CdcRuntimeRunReport second = tick(options(db, 3), fx);
            assertTrue(second.passed() && second.committed(), String.valueOf(second.blockers()));
            assertEquals(2, second.counts().read());
            assertFalse(tick(options(db, 3), fx).committed());
        }
    }

    static CliRun cli(String... more) {
        List<String> args = new ArrayList<>(List.of("ops", "cdc-runtime-run", "--mode", "live", "--source", "mssql",
            "--sink", "clickhouse", "--backend", "mssql_cdc", "--pipeline-name", "shop-cdc",
            "--source-connection-id", "mssql-prod", "--sink-connection-id", "clickhouse-prod", "--format", "json"));
        args.addAll(List.of(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    @Test
    void theCliNamesTheTablesWithRepeatedTableOptionsAndReportsEachTable() throws Exception {
        String db = TestEngines.newDatabase("cli_multi");
        try (H2MultiTableCdcFixture fx = new H2MultiTableCdcFixture(TestEngines.newH2Url(), "customers", "orders")) {
            fx.txn().insert("customers", row(1, "ann", "1.00")).insert("orders", row(7, "o", "2.00"))
                .insert("orders", row(8, "o", "3.00")).commit();
            io.dpone.testing.LiveCdcContext.useEmbedded(dir, fx.url);
            CliRun run = cli("--table", "dbo.customers=" + db + ".customers_cdc:id",
                "--table", "dbo.orders=" + db + ".orders_cdc:id");
            assertEquals(0, run.exitCode(), run.stderr());
            JsonNode r = new ObjectMapper().readTree(run.stdout());
            assertTrue(r.path("committed").asBoolean());
            assertEquals(2, r.path("stream").path("tables").size());
            assertEquals("dbo.orders", r.path("tables").path(1).path("source_table").asText());
            assertEquals(2, r.path("tables").path(1).path("counts").path("applied").asInt());
            assertEquals(1, r.path("tables").path(0).path("counts").path("applied").asInt());

            CliRun mixed = cli("--table", "dbo.customers=" + db + ".customers_cdc:id", "--source-table", "orders");
            assertEquals(1, mixed.exitCode());
            assertTrue(mixed.stderr().contains("--source-table is for a single-table stream"), mixed.stderr());
            CliRun malformed = cli("--table", "dbo.customers");
            assertEquals(2, malformed.exitCode());
            assertTrue(malformed.stderr().contains("SCHEMA.TABLE=DB.TABLE:KEY"), malformed.stderr());
            CliRun neither = cli();
            assertEquals(2, neither.exitCode());
            assertTrue(neither.stderr().contains("Missing required options: '--source-schema"), neither.stderr());
        }
    }

    @Test
    void aCrashBetweenTheTablesAppliesAndTheOneCommitReappliesNothingAndABlockedTableIsNamed() throws Exception {
        String db = TestEngines.newDatabase("cdc_multi_crash");
        try (H2MultiTableCdcFixture fx = new H2MultiTableCdcFixture(TestEngines.newH2Url(),
                TABLES.toArray(String[]::new))) {
            fx.txn().insert("customers", row(1, "ann", "1.00")).insert("orders", row(1, "o", "1.00"))
                .insert("items", row(1, "i", "1.00")).commit();
            CdcRunOptions o = options(db, 10);
            io.dpone.cdc.runtime.CdcTick crashing = LiveCdcRuntime.tick(o, CdcRuntime.newRunId(), fx.connection, ch,
                dir.resolve("spool"));
            io.dpone.cdc.runtime.CdcTick.Adapters a = crashing.adapters();
            io.dpone.cdc.runtime.CdcTick.Adapters failing = new io.dpone.cdc.runtime.CdcTick.Adapters(a.reader(),
                a.idempotency(), a.applier(), new CrashOnCommit(a.offsets()), a.fence(), a.lanes());
            CdcRuntimeRunReport crashed = CdcTickRunner.run(new io.dpone.cdc.runtime.CdcTick(CdcRuntime.newRunId(), o,
                failing, 10));
            assertFalse(crashed.passed() || crashed.committed());
            for (String t : TABLES) {
                assertEquals(1, Long.parseLong(ch.query("SELECT count() FROM " + ClickHouseSql.table(db, t + "_cdc"))
                    .get(0).get(0)), "every table applied before the one commit: " + t);
            }
            CdcRuntimeRunReport again = tick(o, fx);
            assertTrue(again.passed() && again.committed(), String.valueOf(again.blockers()));
            assertEquals(0, again.counts().applied());
            assertEquals(3, again.counts().alreadyInSink());

            // a table whose changes were cleaned up unread blocks the tick, and the report names it
            fx.txn().insert("items", row(2, "i", "2.00")).commit();
            byte[] later = fx.txn().insert("orders", row(2, "o", "2.00")).commit();
            fx.cleanupBelow("items", later);
            CdcRuntimeRunReport blocked = tick(o, fx);
            assertFalse(blocked.passed() || blocked.committed());
            Map<String, List<String>> codes = new java.util.LinkedHashMap<>();
            blocked.tables().forEach(t -> codes.put(t.sourceTable(),
                t.blockers().stream().map(io.dpone.error.Blocker::code).toList()));
            assertEquals(Map.of("dbo.customers", List.of(), "dbo.orders", List.of(),
                "dbo.items", List.of("cdc_runtime.cdc_resync_required")), codes);
            blocked.tables().forEach(t -> assertEquals(-1, t.millisBehindSource()));
        }
    }

    /** An offset store whose commit crashes: every table applied, the one offset not committed. */
    private record CrashOnCommit(io.dpone.cdc.CdcOffsetStore inner) implements io.dpone.cdc.CdcOffsetStore {
        @Override
        public java.util.Optional<io.dpone.cdc.CdcOffset> load(io.dpone.cdc.StreamIdentity stream) {
            return inner.load(stream);
        }

        @Override
        public void commit(io.dpone.cdc.StreamIdentity stream, java.util.Optional<io.dpone.cdc.CdcOffset> expected,
                           io.dpone.cdc.CdcOffset next, String writer) {
            throw new IllegalStateException("the process died before the commit");
        }
    }
}
