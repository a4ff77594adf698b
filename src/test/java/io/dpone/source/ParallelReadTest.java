package io.dpone.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * Key-range reads on H2 in MSSQLServer mode (the dialect's MIN/MAX and bound-parameter range SQL): every row is read
 * exactly once across the ranges, whatever the key distribution; keys that cannot split fall back to one reader
 * with a note.
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
            st.execute("CREATE TABLE dbo.comp (a INT NOT NULL, b INT NOT NULL, PRIMARY KEY (a, b))");
            st.execute("INSERT INTO dbo.comp VALUES (1, 1), (1, 2), (2, 1)");
            st.execute("CREATE TABLE dbo.txt (id NVARCHAR(10) NOT NULL PRIMARY KEY, v NVARCHAR(20))");
            st.execute("INSERT INTO dbo.txt VALUES ('a', 'va'), ('b', 'vb')");
            st.execute("CREATE TABLE dbo.nokey (id INT, v NVARCHAR(20))");
            st.execute("CREATE TABLE dbo.empty (id INT NOT NULL PRIMARY KEY, v NVARCHAR(20))");
        }
        table("small", "INT", 1, 2, 3);
        try (SourceReader r = reader()) {
            assertNote(r, "comp", 4, 0, "composite primary key");
            assertNote(r, "txt", 4, 0, "is not an integer");
            assertNote(r, "nokey", 4, 0, "no primary key");
            assertNote(r, "empty", 4, 0, "the table is empty");
            assertNote(r, "small", 4, 1_000, "key span 3 is below parallel_min_rows 1000");
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

    @Test
    void rangeSqlQuotesIdentifiersAndBindsBounds() {
        assertEquals("SELECT [id], [v] FROM [dbo].[t] WHERE [id] >= ? AND [id] < ? ORDER BY [id]",
            SqlServerDialect.selectRange("dbo", "t", List.of(column("id"), column("v")), new KeyRange("id", 1L, 9L)));
        assertEquals("SELECT [id] FROM [dbo].[t] WHERE [id] < ? ORDER BY [id]",
            SqlServerDialect.selectRange("dbo", "t", List.of(column("id")), new KeyRange("id", null, 9L)));
        assertEquals("SELECT [id] FROM [dbo].[t] ORDER BY [id]",
            SqlServerDialect.selectRange("dbo", "t", List.of(column("id")), new KeyRange("id", null, null)));
        assertEquals("SELECT MIN([id]), MAX([id]) FROM [dbo].[t]", SqlServerDialect.keyBounds("dbo", "t", "id"));
    }

    private static SourceColumn column(String name) {
        return new SourceColumn(name, "int", false, new io.dpone.source.types.IntegerType(32, false));
    }
}
