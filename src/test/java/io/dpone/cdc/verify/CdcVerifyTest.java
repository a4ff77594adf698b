package io.dpone.cdc.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.cdc.CdcOffset;
import io.dpone.cdc.StreamIdentity;
import io.dpone.cdc.clickhouse.CdcMaterializer;
import io.dpone.cdc.clickhouse.CdcMaterializer.Compact;
import io.dpone.cdc.clickhouse.CdcMaterializer.DeleteMode;
import io.dpone.cdc.clickhouse.CdcMaterializer.Incremental;
import io.dpone.cdc.clickhouse.CdcMaterializer.Mode;
import io.dpone.cdc.clickhouse.ClickHouseOffsetStore;
import io.dpone.cdc.mssql.H2CdcFixture;
import io.dpone.cdc.mssql.SqlServerCdcReader;
import io.dpone.cdc.runtime.CdcMode;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.cdc.runtime.CdcRuntime;
import io.dpone.cdc.runtime.CdcRuntimeRunReport;
import io.dpone.cdc.runtime.CdcTickRunner;
import io.dpone.cdc.runtime.ClickHouseCdcAdapters;
import io.dpone.cdc.runtime.LiveCdcRuntime;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.TableStatsReader;
import io.dpone.publication.artifact.ArtifactFixtures;
import io.dpone.source.JdbcSourceReader;
import io.dpone.testing.TestEngines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30 items 2 and 3: {@code cdc-verify} passes on a correct stream (also while changes are in flight), and
 * each divergence the ClickHouse CDC anchors' users report (an out-of-band delete in the serving table, a flipped
 * value, a batch lost from the log, a batch replayed on top, a stale row on top of un-merged parts) is found in the
 * bucket of the affected key, and {@code --repair} brings it back to passing without touching the stream's offset;
 * the stream then continues and still verifies.
 */
@io.dpone.testing.EngineTest
class CdcVerifyTest {
    static final int BUCKETS = 16;
    static ClickHouseEndpoint ch;

    @TempDir
    Path dir;

    String db;
    String url;
    H2CdcFixture fx;
    JdbcSourceReader reader;
    CdcRunOptions tickOptions;
    StreamIdentity stream;
    /** The source table as the test knows it: key -> row. */
    TreeMap<Integer, Object[]> live = new TreeMap<>();
    Random r = new Random(30);
    int nextId = 1;

    @BeforeAll
    static void open() {
        ch = TestEngines.clickhouse();
    }

    @AfterAll
    static void close() {
        ch.close();
    }

    @AfterEach
    void closeSource() throws Exception {
        if (reader != null) {
            reader.close();
        }
        if (fx != null) {
            fx.close();
        }
    }

    // ---- the stream ----------------------------------------------------------------------------------------------

    /** A source with history (inserts, updates, deletes, key changes, one key updated many times in one txn). */
    void start(String name) throws Exception {
        db = TestEngines.newDatabase(name);
        url = TestEngines.newH2Url();
        fx = new H2CdcFixture(url);
        reader = ArtifactFixtures.reader(url);
        tickOptions = CdcRunOptions.builder(CdcMode.live).systems("mssql", "clickhouse")
            .backend(SqlServerCdcReader.BACKEND).pipelineName("orders-verify").sourceTable("dbo", "orders")
            .targetDataset(db + ".orders_cdc").uniqueKeys(List.of("order_id"))
            .connections("mssql_test", "clickhouse_test").maxEvents(1_000_000).build();
        stream = new StreamIdentity("orders-verify", SqlServerCdcReader.BACKEND, "dbo", "orders", db + ".orders_cdc",
            List.of("order_id"));
        H2CdcFixture.Txn seed = fx.txn();
        for (int i = 0; i < 120; i++) {
            insert(seed);
        }
        seed.commit();
        changes(6);
        H2CdcFixture.Txn many = fx.txn();
        int hot = live.firstKey();
        for (int i = 0; i < 5; i++) {
            Object[] after = randomRow(hot);
            many.update(live.get(hot), after);
            live.put(hot, after);
        }
        many.commit();
        tick();
    }

    Object[] randomRow(int id) {
        String amount = r.nextInt(5) == 0 ? null : (r.nextInt(2_000_000) - 1_000_000) + "." + r.nextInt(10)
            + r.nextInt(10);
        String note = r.nextInt(3) == 0 ? null : "n" + r.nextInt(1000);
        String at = r.nextInt(4) == 0 ? null : String.format("20%02d-0%d-1%dT0%d:3%d:0%d.%07d", 10 + r.nextInt(20),
            1 + r.nextInt(9), r.nextInt(9), r.nextInt(9), r.nextInt(6), r.nextInt(9), r.nextInt(10_000_000));
        return H2CdcFixture.row(id, r.nextBoolean() ? "new" : "paid", amount, note, at);
    }

    void insert(H2CdcFixture.Txn txn) {
        Object[] row = randomRow(nextId++);
        txn.insert(row);
        live.put((Integer) row[0], row);
    }

    /** {@code n} transactions of random inserts, updates, deletes and key changes. */
    void changes(int n) throws Exception {
        for (int t = 0; t < n; t++) {
            H2CdcFixture.Txn txn = fx.txn();
            for (int k = 0; k < 6; k++) {
                List<Integer> keys = new ArrayList<>(live.keySet());
                int at = keys.get(r.nextInt(keys.size()));
                switch (r.nextInt(4)) {
                    case 0 -> insert(txn);
                    case 1 -> {
                        Object[] after = randomRow(at);
                        txn.update(live.get(at), after);
                        live.put(at, after);
                    }
                    case 2 -> txn.delete(live.remove(at));
                    default -> {
                        Object[] moved = randomRow(nextId++);
                        txn.updateKey(live.remove(at), moved);
                        live.put((Integer) moved[0], moved);
                    }
                }
            }
            txn.commit();
        }
    }

    /** Ticks until the stream has read everything; returns the last batch id that applied rows. */
    String tick() {
        String batch = null;
        for (int i = 0; i < 50; i++) {
            CdcRuntimeRunReport t = CdcTickRunner.run(LiveCdcRuntime.tick(tickOptions, CdcRuntime.newRunId(),
                fx.connection, ch, dir.resolve("spool")));
            assertTrue(t.passed(), String.valueOf(t.blockers()));
            if (t.counts().read() == 0) {
                return batch;
            }
            if (t.counts().applied() > 0) {
                batch = t.batchId();
            }
        }
        throw new AssertionError("the stream did not catch up");
    }

    void incremental() {
        Map<String, Object> m = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(db + ".orders_cdc",
            db + ".orders_current", List.of("order_id"), DeleteMode.exclude_deleted, Mode.incremental,
            new Incremental(1_000_000, Duration.ofDays(7), Compact.never, 32, 0.25, "auto")), null);
        assertEquals(true, m.get("passed"), String.valueOf(m.get("blockers")));
    }

    void rebuild() {
        Map<String, Object> m = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(db + ".orders_cdc",
            db + ".orders_current", List.of("order_id"), DeleteMode.exclude_deleted), null);
        assertEquals(true, m.get("passed"), String.valueOf(m.get("blockers")));
    }

    Map<String, Object> verify(boolean repair) throws Exception {
        Path out = dir.resolve("verify-" + System.nanoTime());
        Map<String, Object> report = new CdcVerifier(ch, reader, fx.connection, dir.resolve("spool")).verify(
            new CdcVerifier.Options(stream, db + ".orders_current", BUCKETS, repair), out);
        String json = Files.readString(out.resolve(CdcVerifier.JSON_FILE));
        assertTrue(json.contains("\"schema\" : \"" + CdcVerifier.SCHEMA + "\"") || json.contains("\"schema\":\""
            + CdcVerifier.SCHEMA + "\""), json);
        assertTrue(Files.readString(out.resolve(CdcVerifier.MD_FILE)).startsWith("# CDC verification"));
        return report;
    }

    String versions() {
        return ClickHouseSql.table(db, "orders_current__dpone_cdc_versions");
    }

    /** The bucket of {@code key}: the top bits of the typed hash of its key column. */
    int bucketOf(int key) {
        return Integer.parseInt(ch.query("SELECT bitShiftRight(" + TableStatsReader.rowHash(List.of("order_id"))
            + ", " + (64 - Integer.numberOfTrailingZeros(BUCKETS)) + ") FROM (SELECT toInt32(" + key
            + ") AS order_id)").get(0).get(0));
    }

    @SuppressWarnings("unchecked")
    static List<Integer> mismatched(Map<String, Object> report) {
        return ((List<Map<String, Object>>) report.get("mismatched_buckets")).stream()
            .map(b -> (Integer) b.get("bucket")).toList();
    }

    Optional<CdcOffset> offset() {
        return new ClickHouseOffsetStore(ch, db, ClickHouseCdcAdapters.OFFSETS_TABLE).load(stream);
    }

    void assertPasses(Map<String, Object> report) {
        assertEquals(true, report.get("passed"), String.valueOf(report.get("blockers")) + " "
            + report.get("mismatched_buckets"));
        assertEquals(live.size(), ((Number) report.get("source_rows")).intValue());
    }

    /**
     * Asserts the report names exactly the buckets of {@code keys}, then repairs: the repair's second pass passes,
     * the offset is untouched, and the stream continues (changes, tick, materialization) and still verifies.
     */
    void assertFoundAndRepaired(Map<String, Object> found, boolean incremental, int... keys) throws Exception {
        assertEquals(false, found.get("passed"));
        assertEquals("mismatched", found.get("verdict"));
        assertEquals(CdcVerifier.MISMATCH, ((List<io.dpone.error.Blocker>) found.get("blockers")).get(0).code());
        List<Integer> expected = java.util.Arrays.stream(keys).map(this::bucketOf).distinct().sorted().boxed()
            .toList();
        assertEquals(expected, mismatched(found));
        String json = io.dpone.report.ReportWriter.json(found);
        for (int k : keys) {
            Object[] row = live.get(k);
            if (row != null && row[3] != null) {
                assertFalse(json.contains((String) row[3]), "no value in the report");
            }
        }
        Optional<CdcOffset> before = offset();
        Map<String, Object> repaired = verify(true);
        assertEquals(true, repaired.get("passed"), String.valueOf(repaired.get("blockers")));
        assertEquals("repaired", repaired.get("verdict"));
        assertEquals(List.of(), ((Map<?, ?>) repaired.get("after_repair")).get("mismatched_buckets"));
        assertEquals(before, offset(), "the repair leaves the stream's offset alone");
        assertPasses(verify(false));
        changes(3);
        tick();
        if (incremental) {
            incremental();
        } else {
            rebuild();
        }
        assertPasses(verify(false));
    }

    // ---- tests ---------------------------------------------------------------------------------------------------

    @Test
    void aCorrectStreamPassesAlsoWithChangesInFlight() throws Exception {
        start("verifyok");
        incremental();
        Map<String, Object> ok = verify(false);
        assertPasses(ok);
        assertEquals("passed", ok.get("verdict"));
        assertEquals(0, ok.get("differing_in_scan"));
        assertEquals(0L, CdcVerifier.mismatchedBuckets(ok));

        changes(4); // committed at the source, not yet read by the stream
        Map<String, Object> moving = verify(false);
        assertPasses(moving);
        assertTrue((Integer) moving.get("differing_in_scan") > 0, "the scan saw the changes in flight");
        assertFalse(((List<?>) moving.get("in_flight_buckets")).isEmpty());
        assertTrue((Integer) ((Map<?, ?>) moving.get("confirm")).get("change_events_read") > 0);

        tick(); // read into the log, not materialized yet
        assertPasses(verify(false));
        incremental();
        Map<String, Object> caughtUp = verify(false);
        assertPasses(caughtUp);
        assertEquals(0, caughtUp.get("differing_in_scan"));
    }

    @Test
    void anOutOfBandDeleteInTheServingTableIsFoundAndRepaired() throws Exception {
        start("verifydel");
        incremental();
        int key = new ArrayList<>(live.keySet()).get(17);
        ch.execute("ALTER TABLE " + versions() + " DELETE WHERE order_id = " + key + " SETTINGS mutations_sync = 2");
        Map<String, Object> found = verify(false);
        Map<?, ?> b = ((List<Map<?, ?>>) found.get("mismatched_buckets")).get(0);
        assertEquals(1L, b.get("missing_in_serving"));
        assertEquals(0L, b.get("extra_in_serving"));
        assertFoundAndRepaired(found, true, key);
    }

    @Test
    void aFlippedValueIsFoundAndRepaired() throws Exception {
        start("verifyflip");
        incremental();
        int key = new ArrayList<>(live.keySet()).get(40);
        ch.execute("ALTER TABLE " + versions() + " UPDATE status = concat(status, 'x') WHERE order_id = " + key
            + " SETTINGS mutations_sync = 2");
        Map<String, Object> found = verify(false);
        assertEquals(1L, ((List<Map<?, ?>>) found.get("mismatched_buckets")).get(0).get("values_differ"));
        assertFoundAndRepaired(found, true, key);
    }

    @Test
    void aFlippedValueInARebuiltTableIsFoundAndRepairedThroughTheLog() throws Exception {
        start("verifyrebuild");
        rebuild();
        assertPasses(verify(false));
        int key = new ArrayList<>(live.keySet()).get(3);
        ch.execute("ALTER TABLE " + ClickHouseSql.table(db, "orders_current") + " UPDATE status = concat(status, 'x')"
            + " WHERE order_id = " + key + " SETTINGS mutations_sync = 2");
        assertFoundAndRepaired(verify(false), false, key);
        rebuild(); // the repair lives in the log: a later rebuild keeps it
        assertPasses(verify(false));
    }

    @Test
    void aBatchLostFromTheLogIsFoundAndRepaired() throws Exception {
        start("verifylost");
        incremental();
        List<Integer> keys = new ArrayList<>(live.keySet());
        int updated = keys.get(5);
        int deleted = keys.get(60);
        Object[] after = randomRow(updated);
        fx.txn().update(live.get(updated), after).delete(live.remove(deleted)).commit();
        live.put(updated, after);
        String batch = tick();
        // the sink acknowledged, the offset moved, the rows are gone (PeerDB: "normalize reports success, but never
        // inserts")
        ch.execute("ALTER TABLE " + ClickHouseSql.table(db, "orders_cdc") + " DELETE WHERE dpone_cdc_batch_id = "
            + ClickHouseSql.literal(batch) + " SETTINGS mutations_sync = 2");
        incremental();
        Map<String, Object> found = verify(false);
        assertFoundAndRepaired(found, true, updated, deleted);
        incremental(); // a later run over the log with the repair rows changes nothing
        assertPasses(verify(false));
    }

    @Test
    void aBatchReplayedOnTopIsFoundAndRepaired() throws Exception {
        start("verifydup");
        incremental();
        int key = new ArrayList<>(live.keySet()).get(30);
        Object[] first = randomRow(key);
        fx.txn().update(live.get(key), first).commit();
        String replayed = tick();
        Object[] second = randomRow(key);
        second[1] = "new".equals(first[1]) ? "paid" : "new";
        fx.txn().update(first, second).commit();
        live.put(key, second);
        tick();
        // the first batch appended again under new event ids, above every version so far but at a position the
        // source has reached (a replay the sink's idempotency did not recognise)
        String top = ch.query("SELECT toString(max(dpone_cdc_version)) FROM " + ClickHouseSql.table(db, "orders_cdc"))
            .get(0).get(0);
        ch.execute("INSERT INTO " + ClickHouseSql.table(db, "orders_cdc") + " SELECT * REPLACE (concat("
            + "dpone_cdc_event_id, 'dup') AS dpone_cdc_event_id, toUInt256(" + ClickHouseSql.literal(top)
            + ") + 8 AS dpone_cdc_version) FROM " + ClickHouseSql.table(db, "orders_cdc") + " WHERE dpone_cdc_batch_id = "
            + ClickHouseSql.literal(replayed) + " AND dpone_cdc_operation != 'update_before'");
        incremental();
        Map<String, Object> found = verify(false);
        assertEquals(1L, ((List<Map<?, ?>>) found.get("mismatched_buckets")).get(0).get("values_differ"));
        assertFoundAndRepaired(found, true, key);
    }

    @Test
    void unmergedPartsWithAnOldVersionOnTopAreServedRightAndAStaleRowOnTopIsFoundAndRepaired() throws Exception {
        start("verifyparts");
        incremental();
        ch.execute("SYSTEM STOP MERGES " + versions());
        List<Integer> keys = new ArrayList<>(live.keySet());
        int older = keys.get(11);
        int stale = keys.get(70);
        // a newer part holding an older version of a key: FINAL still serves the latest version
        ch.execute("INSERT INTO " + versions() + " SELECT * REPLACE (concat(ifNull(status, ''), 'old') AS status, "
            + "dpone_cdc_version - 1 AS dpone_cdc_version) FROM " + versions() + " FINAL WHERE order_id = " + older);
        assertTrue(Integer.parseInt(ch.query("SELECT count() FROM system.parts WHERE database = "
            + ClickHouseSql.literal(db) + " AND table = 'orders_current__dpone_cdc_versions' AND active").get(0).get(0))
            > 1, "un-merged parts");
        assertPasses(verify(false));
        // a stale image of a key on top (a higher version): the view serves it, verify finds it
        ch.execute("INSERT INTO " + versions() + " SELECT * REPLACE (concat(ifNull(status, ''), 'stale') AS status, "
            + "dpone_cdc_version + 1 AS dpone_cdc_version) FROM " + versions() + " FINAL WHERE order_id = " + stale);
        assertFoundAndRepaired(verify(false), true, stale);
        ch.execute("SYSTEM START MERGES " + versions());
    }

    record Cli(int exit, String out, String err) {
    }

    Cli cli(String... args) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        var utf8 = java.nio.charset.StandardCharsets.UTF_8;
        int exit = new picocli.CommandLine(new io.dpone.cli.VerifyCommand(() -> TestEngines.context(url),
            new java.io.PrintStream(out, true, utf8), new java.io.PrintStream(err, true, utf8)))
            .setErr(new java.io.PrintWriter(err, true, utf8)).execute(args);
        return new Cli(exit, out.toString(utf8), err.toString(utf8));
    }

    @Test
    void theCommandVerifiesAndRepairsThroughConnectionAliases() throws Exception {
        start("verifycli");
        incremental();
        List<String> base = List.of("--pipeline-name", "orders-verify", "--backend", "mssql_cdc", "--source-schema",
            "dbo", "--source-table", "orders", "--cdc-dataset", db + ".orders_cdc", "--target-dataset", db
                + ".orders_current", "--unique-key", "order_id", "--source-connection-id", TestEngines.SOURCE,
            "--sink-connection-id", TestEngines.CLICKHOUSE, "--format", "json");
        java.util.function.Function<String[], Cli> run = extra -> {
            List<String> args = new ArrayList<>(base);
            args.addAll(List.of(extra));
            if (!args.contains("--buckets")) {
                args.addAll(List.of("--buckets", "8"));
            }
            args.addAll(List.of("--output-dir", dir.resolve("cli-" + System.nanoTime()).toString()));
            return cli(args.toArray(String[]::new));
        };
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        Cli ok = run.apply(new String[0]);
        assertEquals(0, ok.exit(), ok.err());
        assertEquals("", ok.err());
        assertEquals("passed", json.readTree(ok.out()).path("verdict").asText());
        assertEquals(CdcVerifier.SCHEMA, json.readTree(ok.out()).path("schema").asText());
        assertFalse(ok.out().contains(dir.toAbsolutePath().toString()), "no local path in the report");

        int key = new ArrayList<>(live.keySet()).get(9);
        ch.execute("ALTER TABLE " + versions() + " DELETE WHERE order_id = " + key + " SETTINGS mutations_sync = 2");
        Cli red = run.apply(new String[0]);
        assertEquals(1, red.exit());
        assertEquals("", red.out());
        var doc = json.readTree(red.err());
        assertEquals("mismatched", doc.path("verdict").asText());
        assertEquals(CdcVerifier.MISMATCH, doc.path("blockers").get(0).path("code").asText());
        assertEquals(1, doc.path("mismatched_buckets").get(0).path("missing_in_serving").asLong());

        Cli repaired = run.apply(new String[] {"--repair"});
        assertEquals(0, repaired.exit(), repaired.err());
        assertEquals("repaired", json.readTree(repaired.out()).path("verdict").asText());
        assertEquals(0, run.apply(new String[0]).exit());

        Cli buckets = run.apply(new String[] {"--buckets", "3"});
        assertEquals(1, buckets.exit());
        assertEquals(CdcVerifier.INVALID_ARGUMENT, json.readTree(buckets.err()).path("blockers").get(0).path("code")
            .asText());
        assertEquals(2, cli("--pipeline-name", "x").exit());
    }

    /**
     * The Change Tracking backend (decimal positions, one change per key): a correct stream passes, also with a
     * change in flight; a flipped value is found in its bucket and repaired, and the stream continues.
     */
    @Test
    void aChangeTrackingStreamIsVerifiedAndRepaired() throws Exception {
        db = TestEngines.newDatabase("verifyct");
        try (io.dpone.cdc.mssql.H2ChangeTrackingFixture ct = new io.dpone.cdc.mssql.H2ChangeTrackingFixture(
            TestEngines.newH2Url());
             JdbcSourceReader rows = ArtifactFixtures.reader(ct.url)) {
            ct.begin();
            for (int id = 1; id <= 80; id++) {
                ct.insert(randomRow(id));
            }
            ct.commit();
            ct.begin();
            ct.update(randomRow(7));
            ct.delete(9);
            ct.commit();
            CdcRunOptions o = CdcRunOptions.builder(CdcMode.live).systems("mssql", "clickhouse")
                .backend("mssql_change_tracking").pipelineName("orders-ct").sourceTable("dbo", "orders")
                .targetDataset(db + ".orders_cdc").uniqueKeys(List.of("order_id"))
                .connections("mssql_test", "clickhouse_test").build();
            StreamIdentity ctStream = new StreamIdentity("orders-ct", "mssql_change_tracking", "dbo", "orders",
                db + ".orders_cdc", List.of("order_id"));
            Runnable tick = () -> {
                CdcRuntimeRunReport t = CdcTickRunner.run(LiveCdcRuntime.tick(o, CdcRuntime.newRunId(), ct.connection,
                    ch, dir.resolve("spool")));
                assertTrue(t.passed(), String.valueOf(t.blockers()));
            };
            tick.run();
            incremental();
            CdcVerifier verifier = new CdcVerifier(ch, rows, ct.connection, dir.resolve("spool"));
            java.util.function.BooleanSupplier passes = () -> Boolean.TRUE.equals(verifier.verify(
                new CdcVerifier.Options(ctStream, db + ".orders_current", BUCKETS, false), null).get("passed"));
            assertTrue(passes.getAsBoolean());
            ct.begin();
            ct.update(randomRow(20));
            ct.insert(randomRow(81));
            ct.commit(); // in flight: not ticked
            Map<String, Object> moving = verifier.verify(new CdcVerifier.Options(ctStream, db + ".orders_current",
                BUCKETS, false), null);
            assertEquals(true, moving.get("passed"), String.valueOf(moving.get("mismatched_buckets")));
            assertTrue((Integer) moving.get("differing_in_scan") > 0);
            tick.run();
            incremental();
            ch.execute("ALTER TABLE " + versions() + " UPDATE status = concat(status, 'x') WHERE order_id = 33"
                + " SETTINGS mutations_sync = 2");
            Map<String, Object> found = verifier.verify(new CdcVerifier.Options(ctStream, db + ".orders_current",
                BUCKETS, false), null);
            assertEquals(List.of(bucketOf(33)), mismatched(found));
            Map<String, Object> repaired = verifier.verify(new CdcVerifier.Options(ctStream, db + ".orders_current",
                BUCKETS, true), null);
            assertEquals("repaired", repaired.get("verdict"), String.valueOf(repaired.get("after_repair")));
            ct.begin();
            ct.update(randomRow(33));
            ct.delete(34);
            ct.commit();
            tick.run();
            incremental();
            assertTrue(passes.getAsBoolean());
        }
    }

    /**
     * A {@code tombstone} serving view keeps deleted keys, flagged: only its live rows are compared. One bucket (the
     * whole key space) works as well.
     */
    @Test
    void aTombstoneViewIsComparedByItsLiveRowsAndOneBucketCoversEverything() throws Exception {
        start("verifytomb");
        Map<String, Object> m = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(db + ".orders_cdc",
            db + ".orders_current", List.of("order_id"), DeleteMode.tombstone, Mode.incremental,
            new Incremental(1_000_000, Duration.ofDays(7), Compact.never, 32, 0.25, "auto")), null);
        assertEquals(true, m.get("passed"), String.valueOf(m.get("blockers")));
        assertTrue(Long.parseLong(ch.query("SELECT count() FROM " + ClickHouseSql.table(db, "orders_current")
            + " WHERE dpone_cdc_deleted = 1").get(0).get(0)) > 0, "the history has deletes");
        assertPasses(verify(false));
        int key = new ArrayList<>(live.keySet()).get(21);
        ch.execute("ALTER TABLE " + versions() + " UPDATE note = concat(ifNull(note, ''), 'x') WHERE order_id = "
            + key + " SETTINGS mutations_sync = 2");
        Map<String, Object> one = new CdcVerifier(ch, reader, fx.connection, dir.resolve("spool")).verify(
            new CdcVerifier.Options(stream, db + ".orders_current", 1, false), null);
        assertEquals(List.of(0), mismatched(one));
        assertEquals("tombstone", one.get("delete_mode"));
        Map<String, Object> repaired = verify(true);
        assertEquals("repaired", repaired.get("verdict"), String.valueOf(repaired.get("after_repair")));
        assertPasses(verify(false));
    }
}
