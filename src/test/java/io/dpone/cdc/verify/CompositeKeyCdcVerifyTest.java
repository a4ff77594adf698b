package io.dpone.cdc.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.cdc.CdcOffset;
import io.dpone.cdc.StreamIdentity;
import io.dpone.cdc.clickhouse.CdcMaterializer;
import io.dpone.cdc.clickhouse.CdcMaterializer.Compact;
import io.dpone.cdc.clickhouse.CdcMaterializer.DeleteMode;
import io.dpone.cdc.clickhouse.CdcMaterializer.Incremental;
import io.dpone.cdc.clickhouse.CdcMaterializer.Mode;
import io.dpone.cdc.clickhouse.CdcServing;
import io.dpone.cdc.clickhouse.ClickHouseOffsetStore;
import io.dpone.cdc.mssql.H2CompositeKeyCdcFixture;
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
import io.dpone.format.ByteBuf;
import io.dpone.format.RowBinaryEncoder;
import io.dpone.manifest.TableRef;
import io.dpone.publication.artifact.ArtifactFixtures;
import io.dpone.quality.TypedRowHasher;
import io.dpone.source.JdbcSourceReader;
import io.dpone.source.RowCursor;
import io.dpone.source.SourceColumn;
import io.dpone.source.SourceTable;
import io.dpone.testing.TestEngines;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30, end to end with a <b>composite</b> unique key ({@code region, order_id, ship_date, lot}: a string, an
 * int, a date and a GUID, in another order than the table's columns; {@link H2CompositeKeyCdcFixture}): a live
 * stream ticks inserts, updates, deletes and updates of a single key component (a delete and an insert at one LSN),
 * the serving table is materialized incrementally, {@code dpone ops cdc-verify} (the command, {@link
 * io.dpone.cli.VerifyCommand}) passes; a row deleted from, a value changed in and a row added to the serving table
 * (the added one differs from a served key by its GUID only) are each reported in their key-hash bucket with their
 * counts and no value; {@code --repair} brings it back to passing without touching the stream's offset; the stream
 * continues and still verifies; and the serving table equals the source row for row by the full refresh's typed
 * hashes, compared here independently of the verifier's buckets.
 */
@io.dpone.testing.EngineTest
class CompositeKeyCdcVerifyTest {
    static final int BUCKETS = 16;
    static final List<String> KEY = H2CompositeKeyCdcFixture.KEY;
    static final String[] REGIONS = {"EU", "US", "APAC", "LATAM"};
    static ClickHouseEndpoint ch;

    @TempDir
    Path dir;

    String db;
    String url;
    H2CompositeKeyCdcFixture fx;
    JdbcSourceReader reader;
    CdcRunOptions tickOptions;
    StreamIdentity stream;
    /** The source table as the test knows it: composite key -> row. */
    final Map<List<Object>, Object[]> live = new LinkedHashMap<>();
    final Random r = new Random(3030);
    final ObjectMapper json = new ObjectMapper();

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

    // ---- the source and the stream -------------------------------------------------------------------------------

    Object[] randomRow(String region, int orderId, String shipDate, UUID lot) {
        String amount = r.nextInt(5) == 0 ? null : (r.nextInt(2_000_000) - 1_000_000) + "." + r.nextInt(10)
            + r.nextInt(10);
        String note = r.nextInt(3) == 0 ? null : "note-" + Long.toHexString(r.nextLong());
        return H2CompositeKeyCdcFixture.row(region, orderId, shipDate, lot, r.nextBoolean() ? "new" : "shipped",
            amount, note);
    }

    UUID lot() {
        return new UUID(r.nextLong(), r.nextLong());
    }

    String date() {
        return LocalDate.of(2026, 1 + r.nextInt(3), 1 + r.nextInt(3)).toString();
    }

    /** A fresh key: often a sibling of a live key (the same in all components but one), so only the whole key tells. */
    Object[] newRow() {
        while (true) {
            Object[] row;
            if (!live.isEmpty() && r.nextBoolean()) {
                Object[] sibling = pick();
                row = withComponent(sibling, r.nextInt(KEY.size()));
            } else {
                row = randomRow(REGIONS[r.nextInt(REGIONS.length)], 1 + r.nextInt(30), date(), lot());
            }
            if (!live.containsKey(H2CompositeKeyCdcFixture.key(row))) {
                return row;
            }
        }
    }

    /** {@code row}'s values with one key component ({@code KEY.get(component)}) changed and new non-key values. */
    Object[] withComponent(Object[] row, int component) {
        String region = (String) row[1];
        int orderId = (Integer) row[0];
        String shipDate = row[2].toString();
        UUID lot = (UUID) row[3];
        switch (component) {
            case 0 -> region = REGIONS[(Arrays.asList(REGIONS).indexOf(region) + 1 + r.nextInt(REGIONS.length - 1))
                % REGIONS.length];
            case 1 -> orderId = orderId + 1 + r.nextInt(30);
            case 2 -> shipDate = LocalDate.parse(shipDate).plusDays(1 + r.nextInt(40)).toString();
            default -> lot = lot();
        }
        return randomRow(region, orderId, shipDate, lot);
    }

    Object[] pick() {
        List<List<Object>> keys = new ArrayList<>(live.keySet());
        return live.get(keys.get(r.nextInt(keys.size())));
    }

    void put(Object[] row) {
        live.put(H2CompositeKeyCdcFixture.key(row), row);
    }

    Object[] remove(Object[] row) {
        return live.remove(H2CompositeKeyCdcFixture.key(row));
    }

    /** An in-place update of {@code before}: the same key, new values. */
    Object[] updated(Object[] before) {
        Object[] after = randomRow((String) before[1], (Integer) before[0], before[2].toString(), (UUID) before[3]);
        return after;
    }

    /**
     * An update of one key component of {@code before} (a key the source does not have yet): SQL Server logs it as
     * the delete of the old key and the insert of the new one at one LSN.
     */
    Object[] keyUpdate(H2CompositeKeyCdcFixture.Txn txn, Object[] before, int component) {
        Object[] after;
        do {
            after = withComponent(before, component);
        } while (live.containsKey(H2CompositeKeyCdcFixture.key(after)));
        txn.updateKey(before, after);
        remove(before);
        put(after);
        return after;
    }

    /** {@code n} transactions of random inserts, updates, deletes and key-component updates. */
    void changes(int n) throws Exception {
        for (int t = 0; t < n; t++) {
            H2CompositeKeyCdcFixture.Txn txn = fx.txn();
            for (int k = 0; k < 6; k++) {
                Object[] at = pick();
                switch (r.nextInt(4)) {
                    case 0 -> {
                        Object[] row = newRow();
                        txn.insert(row);
                        put(row);
                    }
                    case 1 -> {
                        Object[] after = updated(at);
                        txn.update(at, after);
                        put(after);
                    }
                    case 2 -> txn.delete(remove(at));
                    default -> keyUpdate(txn, at, r.nextInt(KEY.size()));
                }
            }
            txn.commit();
        }
    }

    /** Ticks until the stream has read everything. */
    void tick() {
        for (int i = 0; i < 50; i++) {
            CdcRuntimeRunReport t = CdcTickRunner.run(LiveCdcRuntime.tick(tickOptions, CdcRuntime.newRunId(),
                fx.connection, ch, dir.resolve("spool")));
            assertTrue(t.passed(), String.valueOf(t.blockers()));
            if (t.counts().read() == 0) {
                return;
            }
        }
        throw new AssertionError("the stream did not catch up");
    }

    void incremental() {
        Map<String, Object> m = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(db + ".shipments_cdc",
            db + ".shipments_current", KEY, DeleteMode.exclude_deleted, Mode.incremental,
            new Incremental(1_000_000, Duration.ofDays(7), Compact.never, 32, 0.25, "auto")), null);
        assertEquals(true, m.get("passed"), String.valueOf(m.get("blockers")));
    }

    // ---- the command ---------------------------------------------------------------------------------------------

    record Cli(int exit, String out, String err) {
    }

    /** {@code dpone ops cdc-verify} for the stream, as an operator runs it, with {@code extra} options. */
    Cli verify(String... extra) {
        List<String> args = new ArrayList<>(List.of("--pipeline-name", "shipments-verify", "--backend",
            SqlServerCdcReader.BACKEND, "--source-schema", H2CompositeKeyCdcFixture.SCHEMA, "--source-table",
            H2CompositeKeyCdcFixture.TABLE, "--cdc-dataset", db + ".shipments_cdc", "--target-dataset",
            db + ".shipments_current"));
        for (String k : KEY) {
            args.addAll(List.of("--unique-key", k));
        }
        args.addAll(List.of("--source-connection-id", TestEngines.SOURCE, "--sink-connection-id",
            TestEngines.CLICKHOUSE, "--buckets", String.valueOf(BUCKETS), "--format", "json", "--output-dir",
            dir.resolve("verify-" + System.nanoTime()).toString()));
        args.addAll(List.of(extra));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        var utf8 = StandardCharsets.UTF_8;
        int exit = new picocli.CommandLine(new io.dpone.cli.VerifyCommand(() -> TestEngines.context(url),
            new PrintStream(out, true, utf8), new PrintStream(err, true, utf8)))
            .setErr(new PrintWriter(err, true, utf8)).execute(args.toArray(String[]::new));
        return new Cli(exit, out.toString(utf8), err.toString(utf8));
    }

    /** A passing verification: exit 0, the document on stdout, every source row compared. */
    JsonNode passes(String... extra) throws Exception {
        Cli c = verify(extra);
        assertEquals(0, c.exit(), c.err());
        assertEquals("", c.err());
        JsonNode doc = json.readTree(c.out());
        assertEquals(CdcVerifier.SCHEMA, doc.path("schema").asText());
        assertTrue(doc.path("passed").asBoolean(), c.out());
        assertEquals(KEY, json.convertValue(doc.path("stream").path("unique_keys"), List.class));
        assertEquals(live.size(), doc.path("source_rows").asInt());
        return doc;
    }

    // ---- what the test checks independently ----------------------------------------------------------------------

    String servingTable() {
        return ClickHouseSql.table(db, "shipments_current");
    }

    String versionsTable() {
        return ClickHouseSql.table(db, CdcServing.versionsTable("shipments_current"));
    }

    /** A ClickHouse predicate selecting the composite key of {@code row}. */
    static String where(Object[] row) {
        List<Object> key = H2CompositeKeyCdcFixture.key(row);
        List<String> terms = new ArrayList<>();
        terms.add(ClickHouseSql.id("region") + " = " + ClickHouseSql.literal((String) key.get(0)));
        terms.add(ClickHouseSql.id("order_id") + " = " + key.get(1));
        terms.add(ClickHouseSql.id("ship_date") + " = " + ClickHouseSql.literal(key.get(2).toString()));
        terms.add(ClickHouseSql.id("lot") + " = toUUID(" + ClickHouseSql.literal(key.get(3).toString()) + ")");
        return String.join(" AND ", terms);
    }

    long served(Object[] row) {
        return Long.parseLong(ch.query("SELECT count() FROM " + servingTable() + " WHERE " + where(row)).get(0)
            .get(0));
    }

    /** The bucket the serving table puts {@code row}'s key in (the typed hash of the key columns, top bits). */
    int bucketOf(Object[] row) {
        List<List<String>> b = ch.query("SELECT bitShiftRight(" + TableStatsReader.rowHash(KEY) + ", "
            + (64 - Integer.numberOfTrailingZeros(BUCKETS)) + ") FROM " + versionsTable() + " WHERE " + where(row)
            + " LIMIT 1");
        assertEquals(1, b.size(), "the key is in the versioned table");
        return Integer.parseInt(b.get(0).get(0));
    }

    /**
     * Row hashes (the full refresh's typed hash of every column) of the source table, read by the full refresh's
     * reader, and of the serving table, sorted: equal lists mean equal tables row for row.
     */
    void assertServingEqualsSource() {
        SourceTable table = reader.describe(new TableRef(H2CompositeKeyCdcFixture.SCHEMA,
            H2CompositeKeyCdcFixture.TABLE), List.of());
        List<String> columns = table.columns().stream().map(SourceColumn::name).toList();
        assertEquals(H2CompositeKeyCdcFixture.COLUMN_NAMES, columns.stream().map(c -> c.toLowerCase(
            java.util.Locale.ROOT)).toList());
        RowBinaryEncoder encoder = new RowBinaryEncoder(table.columns());
        TypedRowHasher hasher = new TypedRowHasher(table.columns());
        ByteBuf buf = new ByteBuf(4096);
        int[] offsets = new int[columns.size() + 1];
        List<String> source = new ArrayList<>();
        try (RowCursor cursor = reader.open(table, 10_000, -1)) {
            Object[] row = new Object[columns.size()];
            while (cursor.next(row)) {
                buf.reset();
                encoder.encode(row, buf, offsets);
                source.add(Long.toUnsignedString(hasher.hash(buf.array(), offsets)));
            }
        }
        source.sort(null);
        List<String> serving = ch.query("SELECT toString(" + TableStatsReader.rowHash(columns) + ") AS h FROM "
            + servingTable()).stream().map(r -> r.get(0)).sorted().toList();
        assertEquals(live.size(), source.size(), "the source holds the test's rows");
        assertEquals(source, serving, "the serving table equals the source by the typed row hashes");
    }

    Optional<CdcOffset> offset() {
        return new ClickHouseOffsetStore(ch, db, ClickHouseCdcAdapters.OFFSETS_TABLE).load(stream);
    }

    // ---- the test ------------------------------------------------------------------------------------------------

    @Test
    void aCompositeKeyStreamVerifiesFindsEachPlantedDivergenceInItsBucketAndRepairs() throws Exception {
        db = TestEngines.newDatabase("verifycomposite");
        url = TestEngines.newH2Url();
        fx = new H2CompositeKeyCdcFixture(url);
        reader = ArtifactFixtures.reader(url);
        tickOptions = CdcRunOptions.builder(CdcMode.live).systems("mssql", "clickhouse")
            .backend(SqlServerCdcReader.BACKEND).pipelineName("shipments-verify")
            .sourceTable(H2CompositeKeyCdcFixture.SCHEMA, H2CompositeKeyCdcFixture.TABLE)
            .targetDataset(db + ".shipments_cdc").uniqueKeys(KEY).connections("mssql_test", "clickhouse_test")
            .maxEvents(1_000_000).build();
        stream = new StreamIdentity("shipments-verify", SqlServerCdcReader.BACKEND, H2CompositeKeyCdcFixture.SCHEMA,
            H2CompositeKeyCdcFixture.TABLE, db + ".shipments_cdc", KEY);

        // history: a seed, random transactions, then one transaction per key component that changes only it
        H2CompositeKeyCdcFixture.Txn seed = fx.txn();
        for (int i = 0; i < 150; i++) {
            Object[] row = newRow();
            seed.insert(row);
            put(row);
        }
        seed.commit();
        tick();
        incremental();
        changes(5);
        tick();
        List<Object[]> movedFrom = new ArrayList<>();
        List<Object[]> movedTo = new ArrayList<>();
        for (int component = 0; component < KEY.size(); component++) {
            H2CompositeKeyCdcFixture.Txn txn = fx.txn();
            Object[] before = pick();
            movedFrom.add(before);
            movedTo.add(keyUpdate(txn, before, component));
            Object[] other = pick(); // and an in-place update in the same transaction
            Object[] after = updated(other);
            txn.update(other, after);
            put(after);
            txn.commit();
            tick(); // one tick per key change: the materialization applies them over several batches
        }
        H2CompositeKeyCdcFixture.Txn many = fx.txn(); // one key updated many times in one transaction
        Object[] hot = pick();
        for (int i = 0; i < 4; i++) {
            Object[] after = updated(hot);
            many.update(hot, after);
            put(after);
            hot = after;
        }
        many.commit();
        tick();
        incremental();

        for (int i = 0; i < movedFrom.size(); i++) {
            if (!live.containsKey(H2CompositeKeyCdcFixture.key(movedFrom.get(i)))) {
                assertEquals(0, served(movedFrom.get(i)), "the old key of a key-component update is gone ("
                    + KEY.get(i) + ")");
            }
            if (live.containsKey(H2CompositeKeyCdcFixture.key(movedTo.get(i)))) {
                assertEquals(1, served(movedTo.get(i)), "the new key is served (" + KEY.get(i) + ")");
            }
        }
        assertServingEqualsSource();
        JsonNode ok = passes();
        assertEquals("passed", ok.path("verdict").asText());
        assertEquals("incremental", ok.path("serving_mode").asText());
        assertEquals(0, ok.path("differing_in_scan").asInt());

        // plant three divergences in the serving (versioned) table; expected counts per bucket
        List<Object[]> rows = new ArrayList<>(live.values());
        Object[] missing = rows.get(17);
        Object[] changed = rows.get(61);
        Object[] sibling = rows.get(95);
        Object[] extra = sibling.clone();
        do {
            extra[3] = lot(); // the same region, order id and date: only the GUID differs
        } while (live.containsKey(H2CompositeKeyCdcFixture.key(extra)));
        Map<Integer, long[]> expected = new TreeMap<>(); // bucket -> {missing, extra, values differ}
        expected.computeIfAbsent(bucketOf(missing), b -> new long[3])[0]++;
        expected.computeIfAbsent(bucketOf(changed), b -> new long[3])[2]++;
        ch.execute("ALTER TABLE " + versionsTable() + " DELETE WHERE " + where(missing)
            + " SETTINGS mutations_sync = 2");
        ch.execute("ALTER TABLE " + versionsTable() + " UPDATE " + ClickHouseSql.id("status") + " = concat(ifNull("
            + ClickHouseSql.id("status") + ", ''), 'x') WHERE " + where(changed) + " SETTINGS mutations_sync = 2");
        ch.execute("INSERT INTO " + versionsTable() + " SELECT * REPLACE (toUUID(" + ClickHouseSql.literal(
            extra[3].toString()) + ") AS " + ClickHouseSql.id("lot") + ") FROM (SELECT * FROM " + versionsTable()
            + " FINAL WHERE " + where(sibling) + ") SETTINGS async_insert = 0"); // (a REPLACE alias would shadow lot)
        expected.computeIfAbsent(bucketOf(extra), b -> new long[3])[1]++;
        assertEquals(0, served(missing));
        assertEquals(1, served(extra));
        assertEquals(1, served(sibling), "the sibling key is still served once");

        Cli red = verify();
        assertEquals(1, red.exit(), red.err());
        assertEquals("", red.out());
        JsonNode found = json.readTree(red.err());
        assertEquals("mismatched", found.path("verdict").asText());
        assertEquals(CdcVerifier.MISMATCH, found.path("blockers").get(0).path("code").asText());
        Map<Integer, List<Long>> reported = new TreeMap<>();
        for (JsonNode b : found.path("mismatched_buckets")) {
            reported.put(b.path("bucket").asInt(), List.of(b.path("missing_in_serving").asLong(),
                b.path("extra_in_serving").asLong(), b.path("values_differ").asLong()));
            assertEquals(0, b.path("moving_keys_excluded").asLong());
        }
        assertEquals(expected.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey,
            e -> Arrays.stream(e.getValue()).boxed().toList(), (a, b) -> a, TreeMap::new)), reported,
            "each planted divergence in its bucket, with its counts");
        for (Object[] row : List.of(missing, changed, sibling, extra)) {
            assertFalse(red.err().contains(row[3].toString()), "no key value in the report");
            if (row[6] != null) {
                assertFalse(red.err().contains((String) row[6]), "no value in the report");
            }
        }

        Optional<CdcOffset> before = offset();
        Cli repaired = verify("--repair");
        assertEquals(0, repaired.exit(), repaired.err());
        JsonNode doc = json.readTree(repaired.out());
        assertEquals("repaired", doc.path("verdict").asText(), repaired.out());
        assertEquals(0, doc.path("after_repair").path("mismatched_buckets").size());
        assertEquals(List.copyOf(expected.keySet()), json.convertValue(doc.path("repair").path("buckets"),
            List.class));
        assertEquals(1, doc.path("repair").path("deletes_written").asInt(), "the extra key is deleted");
        assertEquals(before, offset(), "the repair leaves the stream's offset alone");
        assertEquals(1, served(missing));
        assertEquals(0, served(extra));
        assertServingEqualsSource();
        assertEquals("passed", passes().path("verdict").asText());

        // the stream continues over the repaired table, key-component updates included, and still verifies
        changes(4);
        H2CompositeKeyCdcFixture.Txn txn = fx.txn();
        Object[] restored = live.get(H2CompositeKeyCdcFixture.key(missing)); // the repaired row, unless moved since
        keyUpdate(txn, restored != null ? restored : pick(), 0);
        txn.commit();
        tick();
        incremental();
        assertServingEqualsSource();
        assertEquals("passed", passes().path("verdict").asText());
    }
}
