package io.dpone.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.manifest.BatchManifest;
import io.dpone.manifest.ManifestLoader;
import io.dpone.testing.FullRefreshFixture;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.camel.Processor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Parallel reads and chunk-level resume for keys that are not a single integer, on the H2 MSSQLServer emulation: a
 * GUID-keyed and a composite-keyed table load with three key-range readers, every gate green, the target holding
 * exactly the source's keys; an attempt killed (or stopped) after some chunks is resumed by the next attempt with the
 * same run id, which loads exactly the rows the staging table lacked: the target's rows of the first attempt's load are
 * the keys it had staged, and the second attempt's load holds every other key and nothing else.
 */
@io.dpone.testing.EngineTest
class KeyRangeResumeTest {
    static final int ROWS = 6_000;
    static final int CHUNK_ROWS = 700;
    static final String RUN = "keys-1";

    @TempDir
    Path dir;
    @RegisterExtension
    final FullRefreshFixture fx = new FullRefreshFixture("keyresume", KeyRangeResumeTest::seed);

    static void seed(Connection src) throws Exception {
        Random random = new Random(32);
        try (Statement st = src.createStatement()) {
            st.execute("CREATE SCHEMA IF NOT EXISTS dbo");
            st.execute("CREATE TABLE dbo.guid_orders (id UNIQUEIDENTIFIER NOT NULL PRIMARY KEY, n INT NOT NULL, "
                + "amount DECIMAL(12, 2), note NVARCHAR(40))");
            st.execute("CREATE TABLE dbo.order_lines (order_no INT NOT NULL, line_id NVARCHAR(12) NOT NULL, "
                + "qty INT NOT NULL, PRIMARY KEY (order_no, line_id))");
        }
        try (PreparedStatement g = src.prepareStatement("INSERT INTO dbo.guid_orders VALUES (?, ?, ?, ?)");
             PreparedStatement l = src.prepareStatement("INSERT INTO dbo.order_lines VALUES (?, ?, ?)")) {
            for (int i = 0; i < ROWS; i++) {
                g.setObject(1, new UUID(random.nextLong(), random.nextLong()));
                g.setInt(2, i);
                g.setBigDecimal(3, i % 7 == 0 ? null : java.math.BigDecimal.valueOf(random.nextInt(1_000_000), 2));
                g.setString(4, i % 5 == 0 ? null : "note " + i);
                g.addBatch();
                l.setInt(1, i / 4); // four lines per order: the leading column alone does not identify a row
                l.setString(2, "L" + (i % 4) + "-" + Integer.toString(random.nextInt(1 << 20), 36));
                l.setInt(3, i);
                l.addBatch();
            }
            g.executeBatch();
            l.executeBatch();
        }
    }

    private static final Map<String, String> KEYS = Map.of("guid_orders", "id", "order_lines", "order_no, line_id");

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"guid_orders", "order_lines"})
    void loadsWithThreeKeyRangeReadersEveryGateGreenExactRows(String table) throws Exception {
        RunReport r = runOnce(manifest(table), Map.of());
        assertTrue(r.passed(), () -> r.blockers().toString());
        assertTrue(r.notes().get(0).startsWith("source read by 3 readers in key ranges of " + KEYS.get(table)),
            r.notes()::toString);
        assertTrue(r.gates().stream().noneMatch(io.dpone.quality.GateResult::isFailed), r.gates()::toString);
        assertEquals("passed", gate(r, "typed_hash"));
        assertEquals("passed", gate(r, "row_count"));
        assertEquals(ROWS, r.loadedRows());
        assertEquals(sourceKeys(table), keys(ClickHouseSql.table(fx.db(), table), table, null));
    }

    @Test
    void aKilledGuidRunResumesLoadingOnlyTheKeysItsStagingLacks() throws Exception {
        assertResumesExactly("guid_orders", Map.of("failedRun", (Processor) e -> { }, "loadChunk",
            FullRefreshFixture.crashAfter(3)));
    }

    @Test
    void aStoppedCompositeKeyRunResumesLoadingOnlyTheKeysItsStagingLacks() throws Exception {
        assertResumesExactly("order_lines", Map.of("loadChunk", FullRefreshFixture.stopBefore(4)));
    }

    private void assertResumesExactly(String table, Map<String, Object> interruption) throws Exception {
        BatchManifest m = manifest(table);
        assertFalse(runOnce(m, interruption).passed());
        String staging = fx.staging(table, RUN);
        List<List<String>> loads = fx.clickhouse().query("SELECT DISTINCT __dpone__load_id FROM " + staging);
        assertEquals(1, loads.size(), "one attempt loaded the staging table");
        String firstLoad = loads.get(0).get(0);
        Set<String> staged = keys(staging, table, null);
        assertTrue(staged.size() >= 2 * CHUNK_ROWS && staged.size() < ROWS, "some chunks were staged: " + staged.size());

        RunReport resumed = runOnce(m, Map.of());
        assertTrue(resumed.passed(), () -> resumed.blockers().toString());
        assertEquals(staged.size(), resumed.resumedStaging().rowsKept());
        assertEquals(ROWS, resumed.sourceRows(), "the gates' source side covers the whole table");
        assertEquals(ROWS - staged.size(), resumed.loadedRows(), "only the missing rows are loaded");
        assertEquals("passed", gate(resumed, "typed_hash"));
        String target = ClickHouseSql.table(fx.db(), table);
        // what each attempt loaded, key by key: the kept rows are exactly the staged ones, the new load exactly the rest
        assertEquals(staged, keys(target, table, "__dpone__load_id = " + ClickHouseSql.literal(firstLoad)));
        Set<String> rest = new TreeSet<>(sourceKeys(table));
        rest.removeAll(staged);
        assertEquals(rest, keys(target, table, "__dpone__load_id != " + ClickHouseSql.literal(firstLoad)));
        assertEquals(sourceKeys(table), keys(target, table, null));
        assertEquals(String.valueOf(ROWS), fx.clickhouse().query("SELECT count() FROM " + target).get(0).get(0), "no row twice");
    }

    private static String gate(RunReport r, String name) {
        return r.gates().stream().filter(g -> g.gate().equals(name)).findFirst().orElseThrow().status();
    }

    /** The keys of a ClickHouse table as text ({@code where}: an optional filter). */
    private Set<String> keys(String table, String source, String where) {
        Set<String> keys = new TreeSet<>();
        String cols = KEYS.get(source).equals("id") ? "toString(id)" : "concat(toString(order_no), '|', line_id)";
        for (List<String> r : fx.clickhouse().query("SELECT " + cols + " FROM " + table + (where == null ? "" : " WHERE " + where))) {
            assertTrue(keys.add(r.get(0)), "a key loaded twice: " + r.get(0));
        }
        return keys;
    }

    private Set<String> sourceKeys(String table) throws Exception {
        Set<String> keys = new TreeSet<>();
        String cols = table.equals("guid_orders") ? "id" : "order_no, line_id";
        try (Statement st = fx.source().createStatement(); ResultSet rs = st.executeQuery("SELECT " + cols + " FROM dbo." + table)) {
            while (rs.next()) {
                keys.add(table.equals("guid_orders") ? rs.getObject(1).toString() : rs.getInt(1) + "|" + rs.getString(2));
            }
        }
        Set<String> unique = new HashSet<>(keys);
        assertEquals(ROWS, unique.size());
        return keys;
    }

    private BatchManifest manifest(String table) {
        String orderBy = table.equals("guid_orders") ? "[id]" : "[order_no, line_id]";
        return ManifestLoader.load(Manifests.write(dir.resolve(table + ".batch.yaml"), """
            name: test-key-ranges
            source:
              type: mssql
              connection_ref: %s
              table: {schema: dbo, name: %s}
              options: {fetch_size: 500, chunk_rows: %d, parallel_readers: 3, parallel_min_rows: 1}
            sink:
              type: clickhouse
              connection_ref: %s
              table: {schema: %s, name: %s}
              staging: {schema: %s}
              strategy: {mode: full_refresh}
              options: {order_by: %s}
            """.formatted(TestEngines.SOURCE, table, CHUNK_ROWS, TestEngines.CLICKHOUSE, fx.db(), table, fx.db(),
                orderBy)));
    }

    private RunReport runOnce(BatchManifest m, Map<String, Object> overrides) {
        return fx.run(m, RUN, dir.resolve("state"), overrides);
    }
}
