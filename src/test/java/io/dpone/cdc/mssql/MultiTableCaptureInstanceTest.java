package io.dpone.cdc.mssql;

import static io.dpone.cdc.mssql.H2MultiTableCdcFixture.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.cdc.CdcOffset;
import io.dpone.cdc.clickhouse.CdcMaterializer;
import io.dpone.cdc.clickhouse.ClickHouseOffsetStore;
import io.dpone.cdc.runtime.CdcMode;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.cdc.runtime.CdcRuntime;
import io.dpone.cdc.runtime.CdcRuntimeRunReport;
import io.dpone.cdc.runtime.CdcTickRunner;
import io.dpone.cdc.runtime.ClickHouseCdcAdapters;
import io.dpone.cdc.runtime.LiveCdcRuntime;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.report.Json;
import io.dpone.testing.TestEngines;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A multi-table stream records a table's hand-over to its second capture instance in its one offset (the table's
 * {@code capture_instance} in the per-table state of {@code offset.resume}): once recorded, the table reads that
 * instance on every tick, also after its first instance is disabled, while the stream's other tables go on; an
 * offset written before (without the field) resumes as it always did (docs/cdc.md, "Schema changes").
 */
@io.dpone.testing.EngineTest
class MultiTableCaptureInstanceTest {
    static final List<String> TABLES = List.of("customers", "orders");
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

    static CdcRunOptions options(String db, int maxEvents) {
        List<CdcRunOptions.Table> tables = new ArrayList<>();
        for (String t : TABLES) {
            tables.add(new CdcRunOptions.Table("dbo", t, db + "." + t + "_cdc", List.of("id")));
        }
        return CdcRunOptions.builder(CdcMode.live).systems("mssql", "clickhouse").backend(SqlServerCdcReader.BACKEND)
            .pipelineName("shop-ci").tables(tables).connections("mssql_test", "clickhouse_test")
            .maxEvents(maxEvents).build();
    }

    CdcRuntimeRunReport tick(CdcRunOptions o, H2MultiTableCdcFixture fx) {
        return CdcTickRunner.run(LiveCdcRuntime.tick(o, CdcRuntime.newRunId(), fx.connection, ch,
            dir.resolve("spool")));
    }

    /** Ticks until a tick reads nothing, every tick passing and committing; returns the changes read. */
    long drain(CdcRunOptions o, H2MultiTableCdcFixture fx) {
        long read = 0;
        for (int i = 0; i < 50; i++) {
            CdcRuntimeRunReport r = tick(o, fx);
            assertTrue(r.passed(), String.valueOf(r.blockers()));
            if (r.counts().read() == 0) {
                return read;
            }
            assertTrue(r.committed(), r.commitOutcome());
            read += r.counts().read();
        }
        throw new AssertionError("the stream never caught up");
    }

    static CdcOffset checkpoint(String db, CdcRunOptions o) {
        return new ClickHouseOffsetStore(ch, db, ClickHouseCdcAdapters.OFFSETS_TABLE).load(o.stream()).orElseThrow();
    }

    /** The per-table state of the checkpoint's offset: {@code tables.<schema.table>}. */
    static JsonNode states(String db, CdcRunOptions o) throws Exception {
        return Json.MAPPER.readTree(checkpoint(db, o).resume()).get("tables");
    }

    /** The table's log materialized into {@code db.<table>_current}: the given columns, one text row per key. */
    List<String> served(String db, String table, List<String> columns) {
        var r = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(db + "." + table + "_cdc",
            db + "." + table + "_current", List.of("id"), CdcMaterializer.DeleteMode.exclude_deleted), null);
        assertEquals(true, r.get("passed"), String.valueOf(r.get("blockers")));
        List<String> out = new ArrayList<>();
        for (List<String> row : ch.query("SELECT " + String.join(", ", columns.stream()
            .map(c -> "toString(" + ClickHouseSql.id(c) + ")").toList()) + " FROM "
            + ClickHouseSql.table(db, table + "_current") + " ORDER BY toInt64(id)")) {
            out.add(CaptureInstanceHandOverTest.text(row));
        }
        return out;
    }

    static List<String> source(H2MultiTableCdcFixture fx, String table, List<String> columns) throws Exception {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = fx.connection.createStatement().executeQuery("SELECT " + String.join(", ", columns)
            + " FROM dbo." + table + " ORDER BY id")) {
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= columns.size(); i++) {
                    Object v = rs.getObject(i);
                    row.add(v == null ? null : v instanceof BigDecimal d ? d.toPlainString() : v.toString());
                }
                out.add(CaptureInstanceHandOverTest.text(row));
            }
        }
        return out;
    }

    static Object[] withChannel(int id, String label, String amount, String channel) {
        return H2CdcFixture.row(row(id, label, amount), channel);
    }

    @Test
    void aTableHandedOverToItsSecondCaptureInstanceKeepsLandingExactlyAfterItsFirstIsDisabled() throws Exception {
        String db = TestEngines.newDatabase("cdc_multi_ci");
        try (H2MultiTableCdcFixture fx = new H2MultiTableCdcFixture(TestEngines.newH2Url(),
                TABLES.toArray(String[]::new))) {
            fx.txn().insert("customers", row(1, "ann", "1.00")).insert("orders", row(1, "o1", "10.00")).commit();
            fx.txn().insert("customers", row(2, "bob", "2.00")).insert("orders", row(2, "o2", "20.00")).commit();
            CdcRunOptions o = options(db, 3);
            assertEquals(4, drain(o, fx));
            assertFalse(checkpoint(db, o).resume().contains("capture_instance"),
                "before a hand-over the offset is as before (no capture_instance)");

            fx.addColumn("orders", "channel", "NVARCHAR(20)");
            // only the first instance captures this one (no channel)
            fx.txn().update("orders", row(2, "o2", "20.00"), withChannel(2, "o2 paid", "20.00", "lost")).commit();
            fx.enableCaptureInstance("orders", "dbo_orders_v2");
            // from here on both instances capture the orders; a transaction spans both tables
            fx.txn().update("orders", row(1, "o1", "10.00"), withChannel(1, "o1 paid", "10.00", "web"))
                .insert("customers", row(3, "cy", "3.00")).commit();
            fx.txn().insert("orders", withChannel(3, "o3", "30.00", "shop")).commit();
            fx.txn().delete("customers", row(2, "bob", "2.00")).commit();
            assertEquals(2 + 3 + 1 + 1, drain(o, fx), "every change once: none read from both instances");
            JsonNode states = states(db, o);
            assertEquals("dbo_orders_v2", states.path("dbo.orders").path("capture_instance").asText(null),
                "the one offset records the table's hand-over");
            assertTrue(states.path("dbo.customers").path("capture_instance").isMissingNode(),
                "a table on its configured instance records none");

            // the operator disables the first instance: the stream reads the recorded one
            fx.disableCaptureInstance("dbo_orders");
            fx.txn().update("orders", withChannel(3, "o3", "30.00", "shop"), withChannel(3, "o3 sent", "30.00",
                "app")).insert("orders", withChannel(4, "o4", "40.00", "web")).insert("customers", row(4, "dee",
                "4.00")).commit();
            fx.txn().delete("orders", withChannel(1, "o1 paid", "10.00", "web")).commit();
            assertEquals(2 + 1 + 1 + 1, drain(o, fx));
            assertEquals("dbo_orders_v2", states(db, o).path("dbo.orders").path("capture_instance").asText(null));

            List<String> orderColumns = List.of("id", "label", "amount", "channel");
            // order 2's channel was written before the second instance existed: only the source has it
            assertEquals(List.of("2|o2 paid|20|lost", "3|o3 sent|30|app", "4|o4|40|web"),
                source(fx, "orders", orderColumns));
            assertEquals(List.of("2|o2 paid|20|\\N", "3|o3 sent|30|app", "4|o4|40|web"),
                served(db, "orders", orderColumns));
            List<String> customerColumns = List.of("id", "label", "amount");
            assertEquals(source(fx, "customers", customerColumns), served(db, "customers", customerColumns));
            assertEquals(List.of("1|ann|1", "3|cy|3", "4|dee|4"), served(db, "customers", customerColumns));
        }
    }

    /**
     * --allow-capture-instance-ddl in a multi-table stream: the table that gained a column gets its second capture
     * instance from the tick, which records the hand-over in the one offset; the other table is left alone.
     */
    @Test
    void withTheFlagAMultiTableStreamCreatesTheChangedTablesSecondInstanceOnly() throws Exception {
        String db = TestEngines.newDatabase("cdc_multi_ci_ddl");
        try (H2MultiTableCdcFixture fx = new H2MultiTableCdcFixture(TestEngines.newH2Url(),
                TABLES.toArray(String[]::new))) {
            fx.txn().insert("customers", row(1, "ann", "1.00")).insert("orders", row(1, "o1", "10.00")).commit();
            CdcRunOptions o = options(db, 3).toBuilder().allowCaptureInstanceDdl(true).build();
            assertEquals(2, drain(o, fx));
            assertTrue(fx.enableTableCalls.isEmpty(), "every instance matches its table: nothing created");

            fx.addColumn("orders", "channel", "NVARCHAR(20)");
            assertEquals(0, drain(o, fx));
            assertEquals(List.of("dbo_orders_v2"), fx.enableTableCalls);
            fx.txn().update("orders", row(1, "o1", "10.00"), withChannel(1, "o1 paid", "10.00", "web"))
                .insert("customers", row(2, "bob", "2.00")).commit();
            fx.txn().insert("orders", withChannel(2, "o2", "20.00", "shop")).commit();
            assertEquals(4, drain(o, fx));
            assertEquals("dbo_orders_v2", states(db, o).path("dbo.orders").path("capture_instance").asText(null));
            fx.disableCaptureInstance("dbo_orders");
            fx.txn().delete("orders", withChannel(2, "o2", "20.00", "shop")).insert("orders", withChannel(3, "o3",
                "30.00", "app")).commit();
            assertEquals(2, drain(o, fx));
            assertEquals(List.of("dbo_orders_v2"), fx.enableTableCalls, "created once");

            List<String> orderColumns = List.of("id", "label", "amount", "channel");
            assertEquals(List.of("1|o1 paid|10|web", "3|o3|30|app"), source(fx, "orders", orderColumns));
            assertEquals(source(fx, "orders", orderColumns), served(db, "orders", orderColumns));
            List<String> customerColumns = List.of("id", "label", "amount");
            assertEquals(source(fx, "customers", customerColumns), served(db, "customers", customerColumns));
        }
    }
}
