package io.dpone.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every {@link ClickHouseEndpoint} must do, whatever ClickHouse it talks to. Each test works in its own
 * database (unique per test and run) and drops it afterwards, so implementations that share one engine or one
 * server stay independent.
 */
public abstract class ClickHouseEndpointContract {
    private static final Pattern UUID_TEXT =
        Pattern.compile("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$");
    private static final String NIL_UUID = "00000000-0000-0000-0000-000000000000";
    private static final String TRICKY = "emoji \uD83D\uDE80 tab\there\nnew line, quote ' backslash \\ caf\u00e9";

    /** The endpoint under test; it stays open for the whole test class. */
    protected abstract ClickHouseEndpoint endpoint();

    protected String db;

    @TempDir
    Path tmp;

    @BeforeEach
    void uniqueDatabase(TestInfo info) {
        String method = info.getTestMethod().map(m -> m.getName()).orElse("test");
        db = ("dpone_ct_" + method + "_" + UUID.randomUUID().toString().substring(0, 8))
            .replaceAll("[^A-Za-z0-9_]", "_").toLowerCase(Locale.ROOT);
        endpoint().execute("CREATE DATABASE IF NOT EXISTS " + ClickHouseSql.id(db) + " ENGINE = Atomic");
    }

    @AfterEach
    void dropDatabase() {
        // No SYNC: with chDB 26.5.3 a DROP ... SYNC never returns for a table that a failed query touched
        // (the failed query keeps a reference to it). Without SYNC the database is gone at once either way.
        endpoint().execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        assertEquals("0", single("SELECT count() FROM system.databases WHERE name = " + ClickHouseSql.literal(db)));
    }

    protected String table(String name) {
        return ClickHouseSql.table(db, name);
    }

    protected String single(String sql) {
        List<List<String>> rows = endpoint().query(sql);
        assertEquals(1, rows.size(), () -> "one row expected from: " + sql + " got " + rows);
        assertEquals(1, rows.get(0).size(), () -> "one column expected from: " + sql + " got " + rows);
        return rows.get(0).get(0);
    }

    @Test
    void kindIsEmbeddedOrServer() {
        assertTrue(List.of("embedded", "server").contains(endpoint().kind()), endpoint().kind());
    }

    @Test
    void executeRunsDdl() {
        // idempotent re-run of the database DDL
        endpoint().execute("CREATE DATABASE IF NOT EXISTS " + ClickHouseSql.id(db) + " ENGINE = Atomic");
        endpoint().execute("CREATE TABLE " + table("events") + " (id Int64, name String) ENGINE = MergeTree ORDER BY id");
        endpoint().execute("CREATE TABLE IF NOT EXISTS " + table("events")
            + " (id Int64, name String) ENGINE = MergeTree ORDER BY id");

        assertEquals("Atomic", single("SELECT engine FROM system.databases WHERE name = " + ClickHouseSql.literal(db)));
        assertEquals(List.of(List.of("events", "MergeTree")), endpoint().query(
            "SELECT name, engine FROM system.tables WHERE database = " + ClickHouseSql.literal(db)));

        endpoint().execute("INSERT INTO " + table("events") + " VALUES (1, 'a'), (2, 'b')");
        assertEquals("2", single("SELECT count() FROM " + table("events")));
        // a statement with no result set returns nothing, and query of a statement with no rows is empty
        assertEquals(List.of(), endpoint().query("SELECT * FROM " + table("events") + " WHERE id > 100"));
    }

    @Test
    void queryReturnsTypedTextValuesAndNulls() {
        endpoint().execute("CREATE TABLE " + table("typed") + " ("
            + "id Int64, big Int64, amount Decimal(38, 10), ratio Float64, label String, maybe Nullable(String),"
            + " maybe_int Nullable(Int32), tags Array(String), attrs Map(String, Int32), day Date,"
            + " at DateTime64(3, 'UTC'), flag Bool, uid UUID"
            + ") ENGINE = MergeTree ORDER BY id");
        endpoint().execute("INSERT INTO " + table("typed") + " SELECT 1, -9223372036854775808,"
            + " toDecimal128('-1234567.0123456789', 10), 0.1 + 0.2, " + ClickHouseSql.literal(TRICKY) + ","
            + " NULL, NULL, ['x', 'y'], map('k', 7), toDate('2024-02-29'),"
            + " toDateTime64('2024-02-29 23:59:58.125', 3, 'UTC'), true, toUUID('6f1ab1c4-5ac6-4a4e-9a8b-0c2b7f3e9d10')");
        endpoint().execute("INSERT INTO " + table("typed") + " SELECT 2, 9223372036854775807,"
            + " toDecimal128('12345.5', 10), 1.5, '', 'present', 42, [], map(), toDate('1970-01-01'),"
            + " toDateTime64('1970-01-01 00:00:00.000', 3, 'UTC'), false, toUUID('" + NIL_UUID + "')");

        List<List<String>> rows = endpoint().query(
            "SELECT id, big, amount, ratio, label, maybe, maybe_int, tags, attrs, day, at, flag, uid FROM "
                + table("typed") + " ORDER BY id");
        assertEquals(2, rows.size());
        assertEquals(Arrays.asList("1", "-9223372036854775808", "-1234567.0123456789", "0.30000000000000004",
            TRICKY, null, null, "[\"x\",\"y\"]", "{\"k\":7}", "2024-02-29", "2024-02-29 23:59:58.125", "true",
            "6f1ab1c4-5ac6-4a4e-9a8b-0c2b7f3e9d10"), rows.get(0));
        assertEquals(Arrays.asList("2", "9223372036854775807", "12345.5", "1.5", "", "present", "42", "[]", "{}",
            "1970-01-01", "1970-01-01 00:00:00.000", "false", NIL_UUID), rows.get(1));

        // full Float64 precision survives the text form
        assertEquals(0.1 + 0.2, Double.parseDouble(single("SELECT 0.1 + 0.2")));
        assertEquals(String.valueOf(0.1 + 0.2), single("SELECT toFloat64(0.1) + toFloat64(0.2)"));
        assertEquals(TRICKY, single("SELECT " + ClickHouseSql.literal(TRICKY)));
        assertNull(single("SELECT CAST(NULL AS Nullable(Int64))"));
        assertEquals("NULL", single("SELECT 'NULL'"), "the string NULL is not SQL NULL");
    }

    /** A Decimal(38, 10) comes back with every digit, and a NaN is never mistaken for SQL NULL. */
    @Test
    void queryKeepsEveryDecimalDigit() {
        assertEquals(List.of(List.of("1234567890123456789012345678.0123456789", "0.0000000001")), endpoint().query(
            "SELECT toDecimal128('1234567890123456789012345678.0123456789', 10), toDecimal128('0.0000000001', 10)"));
        assertEquals(List.of(List.of("nan", "inf", "0.30000000000000004")),
            endpoint().query("SELECT nan, inf, 0.1 + 0.2"));
    }

    @Test
    void queryErrorRaisesClickHouseQueryException() {
        ClickHouseQueryException missing = assertThrows(ClickHouseQueryException.class,
            () -> endpoint().query("SELECT * FROM " + table("no_such_table")));
        assertNotNull(missing.getMessage());
        assertTrue(missing.getMessage().contains("no_such_table"), missing.getMessage());

        ClickHouseQueryException syntax = assertThrows(ClickHouseQueryException.class,
            () -> endpoint().execute("CREATE TABLEX " + table("t") + " (id Int64)"));
        assertTrue(syntax.getMessage().toLowerCase(Locale.ROOT).contains("syntax"), syntax.getMessage());

        // an error raised while rows are produced (not at parse/plan time) is still an exception
        assertThrows(ClickHouseQueryException.class,
            () -> endpoint().query("SELECT throwIf(number = 3, 'boom on row three') FROM numbers(10)"));

        // the endpoint stays usable after errors
        assertEquals("1", single("SELECT 1"));
    }

    @Test
    void insertFileLoadsRowBinaryWithConstantColumn() throws Exception {
        endpoint().execute("CREATE TABLE " + table("load") + " (id Int64, name String, run_id String)"
            + " ENGINE = MergeTree ORDER BY id");
        String longName = "n".repeat(300) + "\u00fc";
        Path chunk = tmp.resolve("chunk-0001.rowbinary");
        Files.write(chunk, rowBinary(new Object[][] {
            {1L, "alpha"}, {-2L, TRICKY}, {3L, ""}, {Long.MAX_VALUE, longName}}));

        endpoint().insertFile(new ClickHouseEndpoint.InsertFile(table("load"), "`id`, `name`, `run_id`",
            "*, " + ClickHouseSql.literal("run-1"), chunk, "RowBinary", "id Int64, name String", null));

        List<List<String>> rows = endpoint().query("SELECT id, name, run_id FROM " + table("load") + " ORDER BY id");
        assertEquals(List.of(
            List.of("-2", TRICKY, "run-1"),
            List.of("1", "alpha", "run-1"),
            List.of("3", "", "run-1"),
            List.of(String.valueOf(Long.MAX_VALUE), longName, "run-1")), rows);

        // settings are passed through; a select list may reorder and compute
        Path second = tmp.resolve("chunk-0002.rowbinary");
        Files.write(second, rowBinary(new Object[][] {{10L, "ten"}, {11L, "eleven"}}));
        endpoint().insertFile(new ClickHouseEndpoint.InsertFile(table("load"), "`run_id`, `id`, `name`",
            ClickHouseSql.literal("run-2") + ", id, upper(name)", second, "RowBinary", "id Int64, name String",
            "max_insert_block_size = 1000, input_format_parallel_parsing = 0"));
        assertEquals(List.of(List.of("10", "TEN", "run-2"), List.of("11", "ELEVEN", "run-2")), endpoint().query(
            "SELECT id, name, run_id FROM " + table("load") + " WHERE run_id = 'run-2' ORDER BY id"));
        assertEquals("6", single("SELECT count() FROM " + table("load")));
    }

    @Test
    void insertFileWithBadDataRaisesClickHouseQueryException() throws Exception {
        endpoint().execute("CREATE TABLE " + table("load") + " (id Int64, name String) ENGINE = MergeTree ORDER BY id");
        Path chunk = tmp.resolve("truncated.rowbinary");
        byte[] good = rowBinary(new Object[][] {{1L, "alpha"}});
        Files.write(chunk, Arrays.copyOf(good, good.length - 2)); // string cut short
        assertThrows(ClickHouseQueryException.class, () -> endpoint().insertFile(new ClickHouseEndpoint.InsertFile(
            table("load"), "`id`, `name`", "*", chunk, "RowBinary", "id Int64, name String", null)));
        assertEquals("0", single("SELECT count() FROM " + table("load")));
    }

    @Test
    void exchangeTablesSwapsTwoTablesInAnAtomicDatabase() {
        endpoint().execute("CREATE TABLE " + table("live") + " (v String) ENGINE = MergeTree ORDER BY tuple()");
        endpoint().execute("CREATE TABLE " + table("staged") + " (v String) ENGINE = MergeTree ORDER BY tuple()");
        endpoint().execute("INSERT INTO " + table("live") + " VALUES ('old')");
        endpoint().execute("INSERT INTO " + table("staged") + " VALUES ('new'), ('newer')");
        String liveUuid = uuidOf("live");
        String stagedUuid = uuidOf("staged");
        assertNotEquals(liveUuid, stagedUuid);

        endpoint().execute("EXCHANGE TABLES " + table("live") + " AND " + table("staged"));

        assertEquals(List.of(List.of("new"), List.of("newer")),
            endpoint().query("SELECT v FROM " + table("live") + " ORDER BY v"));
        assertEquals(List.of(List.of("old")), endpoint().query("SELECT v FROM " + table("staged")));
        assertEquals(stagedUuid, uuidOf("live"), "the exchange moves the table (its uuid), not the data");
        assertEquals(liveUuid, uuidOf("staged"));
    }

    @Test
    void systemTablesReportsUuidAndComment() {
        String comment = "dpone run-1 \u2713 it's \"quoted\"";
        endpoint().execute("CREATE TABLE " + table("described") + " (id Int64) ENGINE = MergeTree ORDER BY id"
            + " COMMENT " + ClickHouseSql.literal(comment));
        List<List<String>> rows = endpoint().query("SELECT toString(uuid), comment, engine FROM system.tables"
            + " WHERE database = " + ClickHouseSql.literal(db) + " AND name = 'described'");
        assertEquals(1, rows.size());
        String uuid = rows.get(0).get(0);
        assertTrue(UUID_TEXT.matcher(uuid).matches(), uuid);
        assertNotEquals(NIL_UUID, uuid);
        assertEquals(comment, rows.get(0).get(1));
        assertEquals("MergeTree", rows.get(0).get(2));
        assertEquals(uuid, uuidOf("described"));
        assertFalse(endpoint().query("SELECT uuid FROM system.tables WHERE database = " + ClickHouseSql.literal(db)
            + " AND name = 'absent'").iterator().hasNext());
    }

    private String uuidOf(String name) {
        return single("SELECT toString(uuid) FROM system.tables WHERE database = " + ClickHouseSql.literal(db)
            + " AND name = " + ClickHouseSql.literal(name));
    }

    /** RowBinary for rows of (Int64, String): little-endian 8 bytes, then LEB128 length and UTF-8 bytes. */
    protected static byte[] rowBinary(Object[][] rows) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object[] row : rows) {
            ByteBuffer id = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
            id.putLong((Long) row[0]);
            out.writeBytes(id.array());
            byte[] text = ((String) row[1]).getBytes(StandardCharsets.UTF_8);
            long length = text.length;
            do {
                byte b = (byte) (length & 0x7F);
                length >>>= 7;
                out.write(length != 0 ? (b | 0x80) : b);
            } while (length != 0);
            out.writeBytes(text);
        }
        return out.toByteArray();
    }
}
