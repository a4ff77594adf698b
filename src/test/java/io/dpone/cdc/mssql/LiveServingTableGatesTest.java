package io.dpone.cdc.mssql;

import static io.dpone.cdc.mssql.H2CdcFixture.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.cdc.clickhouse.CdcMaterializer;
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
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After live ticks and a materialization, the serving table is the source table: it passes a full refresh's gates
 * against it (row count, NULL counts, the typed hash over every value), with typed columns (Decimal(18, 2),
 * DateTime64(7), text) rather than JSON text. Seeded random histories: inserts, updates, deletes, key changes.
 */
@io.dpone.testing.EngineTest
class LiveServingTableGatesTest {
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

    static Object[] randomRow(Random r, int id) {
        String amount = r.nextInt(5) == 0 ? null : (r.nextInt(2_000_000) - 1_000_000) + "." + r.nextInt(10)
            + r.nextInt(10);
        String note = r.nextInt(3) == 0 ? null : "n\u00e9\u4e2d" + r.nextInt(1000) + (r.nextBoolean() ? "\t\"" : "");
        String at = r.nextInt(4) == 0 ? null : String.format("20%02d-0%d-1%dT0%d:3%d:0%d.%07d", 10 + r.nextInt(20),
            1 + r.nextInt(9), r.nextInt(9), r.nextInt(9), r.nextInt(6), r.nextInt(9), r.nextInt(10_000_000));
        return row(id, r.nextBoolean() ? "new" : "paid", amount, note, at);
    }

    CdcRuntimeRunReport tick(CdcRunOptions o, Connection source) {
        return CdcTickRunner.run(LiveCdcRuntime.tick(o, CdcRuntime.newRunId(), source, ch, dir.resolve("spool")));
    }

    void drainAndCheck(CdcRunOptions o, Connection source, String url, String db) {
        for (int i = 0; i < 200; i++) {
            CdcRuntimeRunReport r = tick(o, source);
            assertTrue(r.passed(), String.valueOf(r.blockers()));
            if (r.counts().read() == 0) {
                break;
            }
        }
        Map<String, Object> m = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(db + ".orders_cdc",
            db + ".orders", List.of("order_id"), CdcMaterializer.DeleteMode.exclude_deleted), null);
        assertEquals(true, m.get("passed"), String.valueOf(m.get("blockers")));
        assertEquals(true, m.get("typed"), String.valueOf(m.get("notes")));
        assertEquals(List.of(List.of("order_id", "Int32"), List.of("status", "Nullable(String)"),
            List.of("amount", "Nullable(Decimal(18, 2))"), List.of("note", "Nullable(String)"),
            List.of("updated_at", "Nullable(DateTime64(7, 'UTC'))")), ch.query("SELECT name, type FROM system.columns"
                + " WHERE database = " + ClickHouseSql.literal(db) + " AND table = 'orders' AND name NOT LIKE "
                + "'dpone_cdc_%' ORDER BY position"));
        try (JdbcSourceReader reader = ArtifactFixtures.reader(url)) {
            List<GateResult> gates = ServingGates.compare(reader, new TableRef("dbo", "orders"), ch, db, "orders");
            gates.forEach(g -> assertEquals("passed", g.status(), g.gate() + ": " + g.details()));
        }
    }

    @Test
    void sqlServerCdcServingTablePassesTheFullRefreshGates() throws Exception {
        String db = TestEngines.newDatabase("cdc_gates");
        String url = TestEngines.newH2Url();
        Random r = new Random(7);
        try (H2CdcFixture fx = new H2CdcFixture(url)) {
            Map<Integer, Object[]> live = new java.util.TreeMap<>();
            int nextId = 1;
            for (int t = 0; t < 40; t++) {
                H2CdcFixture.Txn txn = fx.txn();
                for (int k = 0; k < 1 + r.nextInt(6); k++) {
                    int op = live.isEmpty() ? 0 : r.nextInt(4);
                    if (op == 0) {
                        Object[] row = randomRow(r, nextId++);
                        txn.insert(row);
                        live.put((Integer) row[0], row);
                    } else {
                        Integer id = List.copyOf(live.keySet()).get(r.nextInt(live.size()));
                        Object[] before = live.get(id);
                        if (op == 1) {
                            Object[] after = randomRow(r, id);
                            txn.update(before, after);
                            live.put(id, after);
                        } else if (op == 2) {
                            txn.delete(before);
                            live.remove(id);
                        } else {
                            Object[] moved = randomRow(r, nextId++);
                            txn.updateKey(before, moved);
                            live.remove(id);
                            live.put((Integer) moved[0], moved);
                        }
                    }
                }
                txn.commit();
            }
            drainAndCheck(LiveCdcTickTest.options(SqlServerCdcReader.BACKEND, db, 17), fx.connection, url, db);
        }
    }

    @Test
    void changeTrackingServingTablePassesTheFullRefreshGates() throws Exception {
        String db = TestEngines.newDatabase("ct_gates");
        String url = TestEngines.newH2Url();
        Random r = new Random(11);
        try (H2ChangeTrackingFixture fx = new H2ChangeTrackingFixture(url)) {
            java.util.Set<Integer> live = new java.util.TreeSet<>();
            int nextId = 1;
            for (int t = 0; t < 30; t++) {
                fx.begin();
                for (int k = 0; k < 1 + r.nextInt(5); k++) {
                    int op = live.isEmpty() ? 0 : r.nextInt(3);
                    if (op == 0) {
                        fx.insert(randomRow(r, nextId));
                        live.add(nextId++);
                    } else {
                        Integer id = List.copyOf(live).get(r.nextInt(live.size()));
                        if (op == 1) {
                            fx.update(randomRow(r, id));
                        } else {
                            fx.delete(id);
                            live.remove(id);
                        }
                    }
                }
                fx.commit();
            }
            drainAndCheck(LiveCdcTickTest.options(SqlServerChangeTrackingReader.BACKEND, db, 13), fx.connection, url,
                db);
        }
    }
}
