package io.dpone.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.Dpone;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code source.options.parallel_readers}: the key ranges feed one route, and the target holds exactly the source
 * rows (compared with the source table itself, not with what the readers saw: a row read twice would pass the
 * gates, which compare the reader's view with the target).
 */
@io.dpone.testing.EngineTest
class ParallelReadRouteTest {
    @TempDir
    Path dir;
    String h2;
    String db;
    Connection source;
    ClickHouseEndpoint ch;

    @BeforeEach
    void setUp() throws Exception {
        h2 = TestEngines.newH2Url();
        db = TestEngines.newDatabase("prt");
        source = DriverManager.getConnection(h2, "sa", "");
        DemoSalesGenerator.seed(source, 3_000, 11);
        ch = TestEngines.clickhouse();
    }

    @AfterEach
    void tearDown() throws Exception {
        ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        ch.close();
        source.close();
    }

    private RunReport run(String table, String runId, String route, String sourceOptions) {
        Path manifest = Manifests.write(dir.resolve(runId + ".yaml"), """
            source:
              type: mssql
              connection_ref: %s
              table: {schema: dbo, name: %s}
              options: {fetch_size: 500, chunk_rows: 700%s}
            sink:
              type: clickhouse
              connection_ref: %s
              table: {schema: %s, name: %s}
              strategy: {mode: full_refresh}
              options: {route: %s}
            """.formatted(TestEngines.SOURCE, table, sourceOptions, TestEngines.CLICKHOUSE, db, table, route));
        return Dpone.run(manifest, runId, TestEngines.context(h2), ProgressListener.NONE, dir.resolve("state"));
    }

    private List<String> target(String table, String key) {
        return ch.query("SELECT count(), uniqExact(" + key + "), sum(" + key + ") FROM "
            + ClickHouseSql.table(db, table)).get(0);
    }

    private List<String> sourceFacts(String table, String key) throws Exception {
        try (Statement st = source.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*), COUNT(DISTINCT " + key + "), SUM(" + key + ") FROM dbo."
                 + table)) {
            rs.next();
            return List.of(rs.getString(1), rs.getString(2), rs.getString(3));
        }
    }

    @Test
    void keyRangesWithGapsAndNegativeKeysLoadEveryRowExactlyOnce() throws Exception {
        try (Statement st = source.createStatement()) {
            st.execute("DELETE FROM dbo.sales WHERE sale_id BETWEEN 1000 AND 1999"); // a gap in the middle
            st.execute("UPDATE dbo.sales SET sale_id = -sale_id WHERE sale_id < 300"); // negative keys
        }
        for (String route : List.of("typed_binary_streaming", "direct_push_columnar.chunked")) {
            RunReport r = run("sales", "par-" + route.replace('.', '-'), route,
                ", parallel_readers: 3, parallel_min_rows: 0");
            assertTrue(r.passed(), () -> r.blockers().toString());
            assertEquals(2_000, r.loadedRows());
            assertEquals(sourceFacts("sales", "sale_id"), target("sales", "sale_id"));
            assertTrue(r.notes().size() == 2 && r.notes().get(0).startsWith("source read by 3 readers in key ranges"
                + " of sale_id (bounds from ") && r.notes().get(1).startsWith("key ranges read: rows per "
                + "range "), r.notes()::toString);
            long[] perRange = java.util.Arrays.stream(r.notes().get(1).replaceAll("^key ranges read: rows per range "
                + "([0-9/]+),.*$", "$1").split("/")).mapToLong(Long::parseLong).toArray();
            assertEquals(2_000, java.util.Arrays.stream(perRange).sum());
            assertTrue(java.util.Arrays.stream(perRange).allMatch(n -> n > 500), "bounds from the key sample, not "
                + "equal key width: the gap does not unbalance the ranges " + r.notes());
            assertEquals("passed", r.gates().stream().filter(g -> g.gate().equals("typed_hash")).findFirst()
                .orElseThrow().status());
        }
    }

    @Test
    void moreReadersThanRowsAndASingleRow() throws Exception {
        try (Statement st = source.createStatement()) {
            st.execute("DELETE FROM dbo.sales WHERE sale_id > 3");
        }
        RunReport r = run("sales", "par-few", "typed_binary_streaming", ", parallel_readers: 16, parallel_min_rows: 0");
        assertTrue(r.passed(), () -> r.blockers().toString());
        assertEquals(List.of("source read by 3 readers in key ranges of sale_id (bounds from the key at each cut's "
            + "row position; estimated rows per range 1/1/1, spread 1.00)", "key ranges read: rows per range 1/1/1, spread 1.00"),
            r.notes());
        assertEquals(sourceFacts("sales", "sale_id"), target("sales", "sale_id"));
        try (Statement st = source.createStatement()) {
            st.execute("DELETE FROM dbo.sales WHERE sale_id > 1");
        }
        RunReport one = run("sales", "par-one", "typed_binary_streaming", ", parallel_readers: 4, parallel_min_rows: 0");
        assertTrue(one.passed(), () -> one.blockers().toString());
        assertEquals(List.of("parallel_readers: 4 not applied, one reader: its 1 rows cannot be split (bounds from the"
            + " key at each cut's row position)"), one.notes());
        assertEquals(List.of("1", "1", "1"), target("sales", "sale_id"));
    }

    @Test
    void aSmallTableFallsBackToOneReaderWithANoteNotAnErrorAndACompositeKeySplits() throws Exception {
        RunReport small = run("sales", "par-small", "typed_binary_streaming", ", parallel_readers: 2");
        assertTrue(small.passed(), () -> small.blockers().toString());
        assertEquals(List.of("parallel_readers: 2 not applied, one reader: about 3000 rows (the catalogue's estimate) "
            + "is below parallel_min_rows 1000000"), small.notes());
        try (Statement st = source.createStatement()) {
            st.execute("CREATE TABLE dbo.pairs (a INT NOT NULL, b INT NOT NULL, v NVARCHAR(10), PRIMARY KEY (a, b))");
            st.execute("INSERT INTO dbo.pairs VALUES (1, 1, 'x'), (1, 2, 'y'), (2, 1, NULL)");
        }
        RunReport pairs = run("pairs", "par-pairs", "typed_binary_streaming", ", parallel_readers: 2, parallel_min_rows: 0");
        assertTrue(pairs.passed(), () -> pairs.blockers().toString());
        assertTrue(pairs.notes().get(0).startsWith("source read by 2 readers in key ranges of a, b"), pairs.notes()::toString);
        assertEquals(List.of("3", "2"), ch.query("SELECT count(), uniqExact(a) FROM " + ClickHouseSql.table(db, "pairs")).get(0));
        RunReport plain = run("sales", "par-plain", "typed_binary_streaming", "");
        assertTrue(plain.passed() && plain.notes().isEmpty(), plain.notes()::toString);
    }

    @Test
    void aFailingRangeFailsTheRunTypedAndLeavesNoTarget() throws Exception {
        try (Statement st = source.createStatement()) {
            st.execute("UPDATE dbo.sales SET sale_date = DATE '1850-01-01' WHERE sale_id = 2900"); // in the last range
        }
        RunReport r = run("sales", "par-bad", "typed_binary_streaming", ", parallel_readers: 3, parallel_min_rows: 0");
        assertEquals(false, r.passed());
        assertEquals("source.value_out_of_range", r.blockers().get(0).code());
        assertEquals(List.of(), ch.query("SELECT name FROM system.tables WHERE database = " + ClickHouseSql.literal(db)));
    }
}
