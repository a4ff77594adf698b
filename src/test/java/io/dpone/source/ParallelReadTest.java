package io.dpone.source;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.manifest.TableRef;
import io.dpone.testing.TestEngines;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Key-range reads on H2 in MSSQLServer mode (the dialect's key sample and bound-parameter range SQL): every row is
 * read exactly once across the ranges, whatever the key (integer, GUID, composite, text, date) and its distribution;
 * keys that cannot split fall back to one reader with a note.
 */
@io.dpone.testing.EngineTest
class ParallelReadTest {
    String h2;
    Connection db;
    ConnectionContext context;

    @BeforeEach
    void setUp() throws Exception {
        h2 = TestEngines.newH2Url();
        db = DriverManager.getConnection(h2, "sa", "");
        context = TestEngines.context(h2);
        try (Statement st = db.createStatement()) {
            st.execute("CREATE SCHEMA IF NOT EXISTS dbo");
        }
    }

    @AfterEach
    void tearDown() throws Exception {
        db.close();
    }

    private SourceReader reader() {
        return JdbcSourceReader.open(context.resolve(TestEngines.SOURCE, ConnectionType.MSSQL, "source"));
    }

    private void table(String name, String keyType, long... keys) throws Exception {
        try (Statement st = db.createStatement()) {
            st.execute("CREATE TABLE dbo." + name + " (id " + keyType + " NOT NULL PRIMARY KEY, v NVARCHAR(20))");
            for (long k : keys) {
                st.execute("INSERT INTO dbo." + name + " VALUES (" + k + ", 'v" + k + "')");
            }
        }
    }

    /** Reads through the plan's cursors; returns key -> times read. */
    private TreeMap<Long, Integer> readAll(String name, int readers, long minRows, List<String> notes) {
        Supplier<SourceReader> more = this::reader;
        try (SourceReader primary = reader()) {
            SourceTable t = primary.describe(new TableRef("dbo", name), List.of());
            ReadPlan plan = ReadPlan.plan(primary, t, readers, minRows, 0);
            notes.add(plan.note());
            List<RowCursor> cursors = RangeCursors.open(primary, more, t, 100, 0, plan);
            assertEquals(plan.split() ? plan.ranges().size() : 1, cursors.size());
            TreeMap<Long, Integer> seen = new TreeMap<>();
            for (RowCursor c : cursors) {
                Object[] row = new Object[2];
                while (c.next(row)) {
                    seen.merge((Long) row[0], 1, Integer::sum);
                    assertEquals("v" + row[0], row[1]);
                }
                c.close();
            }
            return seen;
        }
    }

    private void assertExactlyOnce(String name, int readers, long... keys) {
        List<String> notes = new ArrayList<>();
        TreeMap<Long, Integer> seen = readAll(name, readers, 0, notes);
        TreeMap<Long, Integer> expected = new TreeMap<>();
        for (long k : keys) {
            expected.put(k, 1);
        }
        assertEquals(expected, seen, () -> "readers " + readers + ", " + notes);
    }

    @Test
    void gapsAndNegativeKeysAreReadExactlyOnce() throws Exception {
        long[] keys = LongStream.concat(LongStream.rangeClosed(-300, -200), LongStream.of(-1, 0, 1, 7, 5_000, 77_777))
            .toArray();
        table("gaps", "BIGINT", keys);
        for (int n = 2; n <= 7; n++) {
            assertExactlyOnce("gaps", n, keys);
        }
    }

    @Test
    void aSingleRowAllRowsInOneRangeAndMoreReadersThanRows() throws Exception {
        table("one", "INT", 5);
        assertExactlyOnce("one", 4, 5);
        table("lump", "INT", 1, 2, 3, 4, 5, 1_000_000); // all but one row in the first range
        assertExactlyOnce("lump", 3, 1, 2, 3, 4, 5, 1_000_000);
        table("few", "SMALLINT", 10, 11, 12);
        assertExactlyOnce("few", 16, 10, 11, 12);
        table("tiny", "TINYINT", 0, 100, 127); // H2's TINYINT is signed
        assertExactlyOnce("tiny", 2, 0, 100, 127);
    }

    @Test
    void theSplitIsReportedAndUsesSeveralConnections() throws Exception {
        table("split", "BIGINT", LongStream.rangeClosed(1, 1000).toArray());
        List<String> notes = new ArrayList<>();
        assertEquals(1000, readAll("split", 3, 0, notes).size());
        assertTrue(notes.get(0).startsWith("source read by 3 readers in key ranges of id"), notes::toString);
    }

    @Test
    void keysThatCannotSplitFallBackToOneReaderWithANote() throws Exception {
        try (Statement st = db.createStatement()) {
            st.execute("CREATE TABLE dbo.flt (id REAL NOT NULL PRIMARY KEY, v NVARCHAR(20))");
            st.execute("INSERT INTO dbo.flt VALUES (1.5, 'a'), (2.5, 'b')");
            st.execute("CREATE TABLE dbo.nokey (id INT, v NVARCHAR(20))");
            st.execute("CREATE TABLE dbo.empty (id INT NOT NULL PRIMARY KEY, v NVARCHAR(20))");
        }
        table("small", "INT", 1, 2, 3);
        try (SourceReader r = reader()) {
            assertNote(r, "flt", 4, 0, "primary key column id is a REAL, which key ranges do not split");
            assertNote(r, "nokey", 4, 0, "no primary key");
            assertNote(r, "empty", 4, 0, "the table is empty");
            assertNote(r, "small", 4, 1_000, "3 rows (the catalogue's estimate) is below parallel_min_rows 1000");
            SourceTable small = r.describe(new TableRef("dbo", "small"), List.of());
            assertEquals(null, ReadPlan.plan(r, small, 1, 0, 0).note(), "one reader asked: nothing to note");
            assertTrue(ReadPlan.plan(r, small, 4, 0, 2).note().contains("row-limited sample"));
            SourceTable onlyV = r.describe(new TableRef("dbo", "small"), List.of("v"));
            assertTrue(ReadPlan.plan(r, onlyV, 4, 0, 0).note().contains("not a selected column"));
        }
        List<String> notes = new ArrayList<>();
        assertEquals(3, readAll("small", 4, 1_000, notes).size(), "the fallback still reads every row");
    }

    private static void assertNote(SourceReader r, String table, int readers, long minRows, String expected) {
        ReadPlan plan = ReadPlan.plan(r, r.describe(new TableRef("dbo", table), List.of()), readers, minRows, 0);
        assertFalse(plan.split());
        assertTrue(plan.note().startsWith("parallel_readers: " + readers + " not applied, one reader: ")
            && plan.note().contains(expected), plan::note);
    }

    /** Reads {@code table} through a plan of {@code readers}; returns every row's values as text, and the plan. */
    private List<String> readRows(String table, int readers, List<ReadPlan> plans, List<long[]> counts) {
        try (SourceReader primary = reader()) {
            SourceTable t = primary.describe(new TableRef("dbo", table), List.of());
            ReadPlan plan = ReadPlan.plan(primary, t, readers, 0, 0);
            plans.add(plan);
            List<RowCursor> cursors = RangeCursors.open(primary, this::reader, t, 100, 0, plan,
                io.dpone.retry.RetryBudget.none(), counts::add);
            List<String> rows = new ArrayList<>();
            for (RowCursor c : cursors) {
                Object[] row = new Object[t.columns().size()];
                while (c.next(row)) {
                    rows.add(java.util.Arrays.toString(row));
                }
                c.close();
            }
            java.util.Collections.sort(rows);
            return rows;
        }
    }

    private List<String> allRows(String table) throws Exception {
        try (SourceReader r = reader()) {
            SourceTable t = r.describe(new TableRef("dbo", table), List.of());
            List<String> rows = new ArrayList<>();
            try (RowCursor c = r.open(t, 100, 0)) {
                Object[] row = new Object[t.columns().size()];
                while (c.next(row)) {
                    rows.add(java.util.Arrays.toString(row));
                }
            }
            java.util.Collections.sort(rows);
            return rows;
        }
    }

    private void assertSplitReadsEveryRowOnce(String table, int readers, String keyText) throws Exception {
        List<ReadPlan> plans = new ArrayList<>();
        List<long[]> counts = new ArrayList<>();
        List<String> expected = allRows(table);
        assertEquals(expected, readRows(table, readers, plans, counts), table + " " + plans);
        ReadPlan plan = plans.get(0);
        assertEquals(readers, plan.ranges().size(), plan::note);
        assertTrue(plan.note().startsWith("source read by " + readers + " readers in key ranges of " + keyText
            + " (bounds from the key at each cut's row position"), plan::note);
        assertEquals(1, counts.size(), "the per-range counts arrive once, after the last range");
        assertEquals(expected.size(), java.util.Arrays.stream(counts.get(0)).sum());
        assertArrayEquals(plan.boundaries().estimatedRows(), counts.get(0),
            "bounds at exact row positions predict each range exactly");
    }

    @Test
    void guidCompositeTextAndDateKeysSplitIntoRangesReadExactlyOnce() throws Exception {
        java.util.Random random = new java.util.Random(7);
        try (Statement st = db.createStatement()) {
            st.execute("CREATE TABLE dbo.guids (id UNIQUEIDENTIFIER NOT NULL PRIMARY KEY, v INT)");
            st.execute("CREATE TABLE dbo.pairs (a INT NOT NULL, b NVARCHAR(10) NOT NULL, v INT, PRIMARY KEY (a, b))");
            st.execute("CREATE TABLE dbo.texts (id VARCHAR(20) NOT NULL PRIMARY KEY, v INT)");
            st.execute("CREATE TABLE dbo.days (d DATE NOT NULL, at DATETIME2 NOT NULL, v INT, PRIMARY KEY (d, at))");
            for (int i = 0; i < 500; i++) {
                st.execute("INSERT INTO dbo.guids VALUES ('" + new java.util.UUID(random.nextLong(), random.nextLong())
                    + "', " + i + ")");
                // a leading column of 3 values: most cuts fall inside one value, on the second column
                st.execute("INSERT INTO dbo.pairs VALUES (" + (i % 3) + ", 'k" + i + "', " + i + ")");
                st.execute("INSERT INTO dbo.texts VALUES ('t-" + Integer.toString(i * 7919 % 1000, 36) + "-" + i + "', "
                    + i + ")");
                st.execute("INSERT INTO dbo.days VALUES (DATE '2024-01-01' + " + (i % 5) + ", TIMESTAMP "
                    + "'2024-01-01 00:00:00.1234567' + INTERVAL '" + i + "' MINUTE, " + i + ")");
            }
        }
        assertSplitReadsEveryRowOnce("guids", 3, "id");
        assertSplitReadsEveryRowOnce("pairs", 3, "a, b");
        assertSplitReadsEveryRowOnce("pairs", 7, "a, b");
        assertSplitReadsEveryRowOnce("texts", 4, "id");
        assertSplitReadsEveryRowOnce("days", 3, "d, at");
    }

    @Test
    void rangeSqlQuotesIdentifiersAndBindsBounds() {
        List<Object> params = new ArrayList<>();
        assertEquals("SELECT [id], [v] FROM [dbo].[t] WHERE ([id] >= ?) AND ([id] < ?) ORDER BY [id]",
            SqlServerDialect.selectRange("dbo", "t", List.of(column("id"), column("v")), List.of(column("id")),
                new KeyRange("id", 1L, 9L), params));
        assertEquals(List.of(1L, 9L), params);
        params.clear();
        assertEquals("SELECT [id] FROM [dbo].[t] WHERE [id] < ? ORDER BY [id]", SqlServerDialect.selectRange("dbo", "t",
            List.of(column("id")), List.of(column("id")), new KeyRange("id", null, 9L), params));
        assertEquals("SELECT [id] FROM [dbo].[t] ORDER BY [id]", SqlServerDialect.selectRange("dbo", "t", List.of(column("id")),
            List.of(column("id")), new KeyRange("id", null, null), params));
        params.clear();
        SourceColumn g = new SourceColumn("g", "uniqueidentifier", false, new io.dpone.source.types.UuidType());
        SourceColumn s = new SourceColumn("s", "varchar", false, new io.dpone.source.types.StringType());
        List<SourceColumn> key = List.of(column("a"), g, s);
        // a full lower bound and a prefix upper bound, written out as nested OR/AND, each value a typed parameter
        assertEquals("([a] >= ? AND ([a] > ? OR [g] >= CAST(? AS uniqueidentifier) AND ([g] > CAST(? AS "
                + "uniqueidentifier) OR [s] >= CAST(? AS varchar(8000))))) AND ([a] <= ? AND ([a] < ? OR [g] < "
                + "CAST(? AS uniqueidentifier)))",
            SqlServerDialect.rangePredicate(key, new KeyRange(List.of("a", "g", "s"), List.of(1, "G1", "x"),
                List.of(2, "G2")), params));
        assertEquals(List.of(1, 1, "G1", "G1", "x", 2, 2, "G2"), params);
        assertThrows(IllegalArgumentException.class, () -> new KeyRange(List.of("a", "b]; DROP TABLE x"), null, null));
        assertThrows(IllegalArgumentException.class, () -> new KeyRange(List.of("a"), List.of(1, 2), null));
    }

    private static SourceColumn column(String name) {
        return new SourceColumn(name, "int", false, new io.dpone.source.types.IntegerType(32, false));
    }
}
