package io.dpone.fuzz;

import static io.dpone.cdc.mssql.H2CdcFixture.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpone.cdc.CdcOffset;
import io.dpone.cdc.StreamIdentity;
import io.dpone.cdc.clickhouse.ClickHouseOffsetStore;
import io.dpone.cdc.mssql.H2CdcFixture;
import io.dpone.cdc.runtime.ClickHouseCdcAdapters;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.error.DponeException;
import io.dpone.testing.CliRun;
import io.dpone.testing.TestEngines;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutated checkpoint rows in ClickHouse ({@code <db>.dpone_cdc_offsets}, the offset store of live ticks and the
 * snapshot hand-over) under {@code dpone ops cdc-runtime-run --mode live} (H2's SQL Server CDC emulation as the
 * source, the embedded ClickHouse as the sink). The row a first tick committed is read as a JSON object of its
 * columns, mutated structure-aware ({@link Mutation}, plus this kind's domain: other backends, token shapes, zeroed
 * and foreign stream ids, invalid resume JSON, values of megabytes), and stored back as the table's only row: a
 * value of another JSON type becomes a column of another ClickHouse type (a number, a Bool, a NULL in a Nullable
 * column, an object's JSON text), a removed key a missing column, an unknown key an extra one; a mutant that is no
 * longer JSON (cut bytes, bytes that are not UTF-8) is stored as the text of the {@code resume} column. Every eighth
 * case runs the live tick through the CLI and keeps {@link FuzzInvariants}; the others drive the store as the tick
 * does (load, then commit the next position), which must return or refuse with a typed exception. A refusal leaves
 * the checkpoint rows and the CDC log as they were.
 */
@io.dpone.testing.EngineTest
class ClickHouseOffsetFuzzTest {
    static final int CASES = FuzzInvariants.cases(48);
    /** Every eighth case runs the whole live tick through the CLI; the others the store as the tick uses it. */
    static final int TICK_EVERY = 8;
    static final String PIPELINE = "orders-cdc";
    static final List<String> COLUMNS = List.of("checkpoint_key", "schema", "stream_id", "stream_json", "backend",
        "token", "snapshot_complete", "saved_at", "saved_version", "resume", "writer");

    @TempDir
    Path dir;

    @AfterEach
    void clear() {
        io.dpone.testing.LiveCdcContext.clear();
    }

    static List<String> domain(String db) {
        String streamId = stream(db).streamId();
        String other = new StreamIdentity(PIPELINE, "mssql_change_tracking", "dbo", "orders", db + ".orders_cdc",
            List.of("order_id")).streamId();
        return List.of("mssql_cdc", "mssql_change_tracking", "events_json", "", "MSSQL_CDC", "0x", "0xZZ", "20", "-1",
            "0x" + "0".repeat(20), "0x" + "f".repeat(20), "0x" + "f".repeat(65), streamId, "0".repeat(32), other,
            streamId.toUpperCase(java.util.Locale.ROOT), "dpone.cdc_checkpoint.v1", "dpone.cdc_checkpoint.v2",
            PIPELINE, "orders-cdc-2", "{not json", "[]", "null", "\"str\"", "{\"a\":", "{\"lsn\":1e309}",
            "x".repeat(1_000_000), "0x" + "1".repeat(200_000), "18446744073709551615", "0", "2",
            "1970-01-01 00:00:00.000", "2262-04-11 23:47:16.854");
    }

    static StreamIdentity stream(String db) {
        return new StreamIdentity(PIPELINE, "mssql_cdc", "dbo", "orders", db + ".orders_cdc", List.of("order_id"));
    }

    /** A secret in the resume point, the writer, the stream's JSON or a column of its own. */
    static boolean plant(ArrayNode holder, Mutator.Planting p) {
        if (holder.size() > 0 && holder.get(0) instanceof ObjectNode o) {
            switch (p.random().nextInt(4)) {
                case 0 -> o.put("resume", "{\"password\":\"" + p.secret() + "\"}");
                case 1 -> o.put("writer", "token=" + p.secret());
                case 2 -> o.put("stream_json", "{\"secret\":\"" + p.secret() + "\"}");
                default -> o.put("api_token", p.secret());
            }
            return true;
        }
        return Trees.plantAnywhere(holder, p);
    }

    @Test
    void mutatedCheckpointRowsInClickHouseAreTypedRefusalsThatAreNeverOverwritten() throws Exception {
        long seed = FuzzInvariants.seed();
        String db = TestEngines.newDatabase("fuzz_offsets");
        String offsets = ClickHouseSql.table(db, ClickHouseCdcAdapters.OFFSETS_TABLE);
        String log = ClickHouseSql.table(db, "orders_cdc");
        try (H2CdcFixture fx = new H2CdcFixture(TestEngines.newH2Url()); ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            fx.txn().insert(row(1, "new", "1.00", null, null)).insert(row(2, "new", "2.00", null, null)).commit();
            io.dpone.testing.LiveCdcContext.useEmbedded(dir, fx.url);
            CliRun first = tick(db);
            assertEquals(0, first.exitCode(), first.stderr());
            // the next ticks have changes to read after the committed position
            fx.txn().update(row(1, "new", "1.00", null, null), row(1, "paid", "1.00", null, null)).commit();
            ObjectNode base = baseRow(ch, offsets);
            Random random = new Random(seed + 7);
            Mutator mutator = new Mutator(new Mutator.Kind("offset_row", false, domain(db),
                ClickHouseOffsetFuzzTest::plant), seed + 7);
            FuzzTally tally = new FuzzTally("offset_row", seed);
            long start = System.nanoTime();
            for (int i = 0; i < CASES; i++) {
                long caseStart = System.nanoTime();
                FuzzCase c = mutator.next(base, i, FuzzInvariants.secret(random));
                replaceTable(ch, offsets, c.bytes(), base);
                List<List<String>> rowsBefore = ch.query("SELECT * FROM " + offsets + " ORDER BY tuple()");
                String logBefore = ch.query("SELECT count() FROM " + log).get(0).get(0);
                try {
                    List<String> codes;
                    int exit;
                    if (i % TICK_EVERY == 0) {
                        CliRun run = tick(db);
                        codes = FuzzInvariants.check(c, run, dir, seed, reports());
                        exit = run.exitCode();
                    } else {
                        codes = store(c, seed, ch, db);
                        exit = codes.isEmpty() ? 0 : 1;
                    }
                    if (exit == 1) {
                        assertEquals(rowsBefore, ch.query("SELECT * FROM " + offsets + " ORDER BY tuple()"),
                            () -> c.describe(seed) + ": refused, but the checkpoint rows changed: " + codes);
                        assertEquals(logBefore, ch.query("SELECT count() FROM " + log).get(0).get(0),
                            () -> c.describe(seed) + ": refused, but the CDC log grew: " + codes);
                    }
                    tally.add(c, exit, codes, caseStart);
                } catch (AssertionError e) {
                    FuzzInvariants.save(c);
                    throw e;
                }
            }
            String summary = tally.write((System.nanoTime() - start) / 1_000_000);
            assertTrue(tally.cases() >= CASES, summary);
        } finally {
            try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
                ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
            }
        }
    }

    /**
     * The store itself, as a tick uses it: load, then commit the next position over what was loaded (or, after a
     * refused load, over nothing). Returns the refusal's codes (empty when both passed); a refusal is a typed
     * {@link DponeException} of registered codes, none {@code internal_error}, whose text names neither the planted
     * secret nor the case directory; anything else thrown is a crash.
     */
    private List<String> store(FuzzCase c, long seed, ClickHouseEndpoint ch, String db) {
        ClickHouseOffsetStore store = new ClickHouseOffsetStore(ch, db, ClickHouseCdcAdapters.OFFSETS_TABLE);
        StreamIdentity stream = stream(db);
        CdcOffset next = new CdcOffset("mssql_cdc", "0x" + "0".repeat(18) + "ff", true, null);
        try {
            Optional<CdcOffset> loaded = store.load(stream);
            store.commit(stream, loaded, next, "fuzz-writer-" + c.index());
            return List.of();
        } catch (DponeException refused) {
            try {
                store.commit(stream, Optional.empty(), next, "fuzz-writer-" + c.index());
                fail(c.describe(seed) + ": a refused checkpoint was committed over");
            } catch (DponeException alsoRefused) {
                // expected: a checkpoint that is not used is not changed either
            }
            String text = refused.getMessage() + " " + refused.blockers();
            String what = c.describe(seed) + ": " + FuzzInvariants.clip(text);
            List<String> codes = refused.blockers().stream().map(b -> b.code()).toList();
            for (String code : codes) {
                assertTrue(FuzzInvariants.KNOWN.contains(code) && !code.equals("runtime.internal_error"), what);
            }
            if (c.secret() != null) {
                FuzzInvariants.halves(c.secret()).forEach(h -> assertFalse(text.contains(h), what));
            }
            assertFalse(text.contains(dir.toAbsolutePath().toString()), what);
            return codes;
        } catch (RuntimeException crash) {
            return fail(c.describe(seed) + ": not a typed refusal: " + crash);
        }
    }

    private CliRun tick(String db) {
        return CliRun.of("ops", "cdc-runtime-run", "--mode", "live", "--source", "mssql", "--sink", "clickhouse",
            "--backend", "mssql_cdc", "--pipeline-name", PIPELINE, "--source-schema", "dbo", "--source-table",
            "orders", "--target-dataset", db + ".orders_cdc", "--unique-key", "order_id", "--source-connection-id",
            "mssql-prod", "--sink-connection-id", "clickhouse-prod", "--output-dir", dir.resolve("out").toString(),
            "--format", "json");
    }

    private String reports() {
        StringBuilder sb = new StringBuilder();
        for (String name : List.of("cdc_runtime_run.json", "cdc_runtime_run.md")) {
            byte[] b = FuzzInvariants.bytes(dir.resolve("out").resolve(name));
            if (b != null) {
                sb.append(new String(b, StandardCharsets.UTF_8)).append('\n');
            }
        }
        return sb.toString();
    }

    /** The committed row, its columns as JSON values (numbers for the numeric columns). */
    private static ObjectNode baseRow(ClickHouseEndpoint ch, String offsets) {
        List<String> r = ch.query("SELECT " + String.join(", ", COLUMNS.stream().map(ClickHouseSql::id).toList())
            + " FROM " + offsets).get(0);
        ObjectNode o = Mutator.F.objectNode();
        for (int i = 0; i < COLUMNS.size(); i++) {
            String name = COLUMNS.get(i);
            if (name.equals("snapshot_complete") || name.equals("saved_version")) {
                o.put(name, new java.math.BigInteger(r.get(i)));
            } else {
                o.put(name, r.get(i));
            }
        }
        return o;
    }

    /**
     * Replaces the checkpoint table with one holding the mutant as its only row. Keys are column names; a value's JSON
     * type chooses the column's type. A mutant that is not a JSON object is the base row with the mutant's text as
     * its {@code resume}; a column name or value the engine refuses is kept as text in a String column of that name,
     * or, failing that, in {@code resume}.
     */
    private static void replaceTable(ClickHouseEndpoint ch, String offsets, byte[] bytes, ObjectNode base) {
        JsonNode parsed;
        try {
            parsed = Trees.JSON.readTree(bytes);
        } catch (java.io.IOException e) {
            parsed = null;
        }
        ObjectNode row;
        if (parsed instanceof ObjectNode o && o.size() > 0) {
            row = o;
        } else {
            row = base.deepCopy();
            row.put("resume", new String(bytes, StandardCharsets.UTF_8));
        }
        ch.execute("DROP TABLE IF EXISTS " + offsets);
        List<String> columns = new ArrayList<>();
        List<String> values = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> fields = row.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            if (!identifier(f.getKey()) || columns.size() >= 40) {
                continue; // a key no ClickHouse column can be named after: the row goes without it
            }
            String[] typed = column(f.getKey(), f.getValue());
            columns.add(ClickHouseSql.id(f.getKey()) + " " + typed[0]);
            values.add(typed[1]);
        }
        try {
            create(ch, offsets, columns, values);
        } catch (RuntimeException refused) {
            // the engine refused a name, type or value: every value as text, then the base row with the text as resume
            List<String> text = new ArrayList<>();
            List<String> literals = new ArrayList<>();
            row.fields().forEachRemaining(f -> {
                if (identifier(f.getKey()) && text.size() < 40) {
                    text.add(ClickHouseSql.id(f.getKey()) + " String");
                    literals.add(ClickHouseSql.literal(f.getValue().isTextual() ? f.getValue().asText()
                        : f.getValue().toString()));
                }
            });
            try {
                ch.execute("DROP TABLE IF EXISTS " + offsets);
                create(ch, offsets, text, literals);
            } catch (RuntimeException again) {
                ObjectNode fallback = base.deepCopy();
                fallback.put("resume", row.toString());
                ch.execute("DROP TABLE IF EXISTS " + offsets);
                List<String> cols = new ArrayList<>();
                List<String> vals = new ArrayList<>();
                fallback.fields().forEachRemaining(f -> {
                    String[] typed = column(f.getKey(), f.getValue());
                    cols.add(ClickHouseSql.id(f.getKey()) + " " + typed[0]);
                    vals.add(typed[1]);
                });
                create(ch, offsets, cols, vals);
            }
        }
    }

    private static boolean identifier(String name) {
        if (name.isEmpty() || name.length() > 200) {
            return false;
        }
        try {
            ClickHouseSql.id(name);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static void create(ClickHouseEndpoint ch, String offsets, List<String> columns, List<String> values) {
        ch.execute("CREATE TABLE " + offsets + " (" + String.join(", ", columns)
            + ") ENGINE = MergeTree ORDER BY tuple()");
        ch.execute("INSERT INTO " + offsets + " SETTINGS async_insert = 0 VALUES (" + String.join(", ", values) + ")");
    }

    /**
     * The ClickHouse type and literal of a column's JSON value: the store's own type when the value still has the
     * JSON type of the committed row's (text for the String and DateTime64 columns, an integer in range for UInt8 and
     * UInt64), else a type of the value's own.
     */
    private static String[] column(String name, JsonNode v) {
        if (name.equals("saved_at") && v.isTextual()) {
            return new String[] {"DateTime64(3, 'UTC')", "parseDateTime64BestEffortOrZero(" + ClickHouseSql.literal(
                v.asText()) + ", 3, 'UTC')"};
        }
        if (name.equals("snapshot_complete") && v.isIntegralNumber() && v.bigIntegerValue().signum() >= 0
            && v.bigIntegerValue().bitLength() <= 8) {
            return new String[] {"UInt8", v.bigIntegerValue().toString()};
        }
        return column(v);
    }

    /** The ClickHouse type and literal of a JSON value. */
    private static String[] column(JsonNode v) {
        if (v.isNull() || v.isMissingNode()) {
            return new String[] {"Nullable(String)", "NULL"};
        }
        if (v.isBoolean()) {
            return new String[] {"Bool", v.asBoolean() ? "true" : "false"};
        }
        if (v.isIntegralNumber()) {
            java.math.BigInteger n = v.bigIntegerValue();
            if (n.signum() >= 0 && n.bitLength() <= 64) {
                return new String[] {"UInt64", n.toString()};
            }
            if (n.bitLength() <= 63) {
                return new String[] {"Int64", n.toString()};
            }
            return new String[] {"String", ClickHouseSql.literal(n.toString())};
        }
        if (v.isNumber()) {
            double d = v.asDouble();
            return Double.isFinite(d) ? new String[] {"Float64", Double.toString(d)}
                : new String[] {"String", ClickHouseSql.literal(v.asText())};
        }
        if (v.isTextual()) {
            return new String[] {"String", ClickHouseSql.literal(v.asText())};
        }
        return new String[] {"String", ClickHouseSql.literal(v.toString())};
    }
}
