package io.dpone.cdc.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.cdc.CdcApplyBatch;
import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.CdcEvent;
import io.dpone.cdc.CdcOperation;
import io.dpone.cdc.EventIdentityIdempotency;
import io.dpone.cdc.SinkReceipt;
import io.dpone.cdc.StreamIdentity;
import io.dpone.cdc.clickhouse.CdcMaterializer.DeleteMode;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.error.DponeException;
import io.dpone.source.SourceColumn;
import io.dpone.source.types.SqlServerTypeNames;
import io.dpone.testing.TestEngines;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A CDC log written with the source's column types is typed like a full refresh, keeps the types in its column
 * comments, refuses a value that does not fit, evolves with the source's columns (added, widened, dropped) and refuses a
 * narrowing or key change, and materializes into a typed serving table.
 */
@io.dpone.testing.EngineTest
class TypedCdcLogTest {
    static final StreamIdentity STREAM = new StreamIdentity("orders-cdc", "mssql_cdc", "dbo", "orders",
        "analytics.orders", List.of("order_id"));
    static final List<SourceColumn> COLUMNS = List.of(column("order_id", "int", false),
        column("status", "nvarchar(20)", false), column("amount", "decimal(10,2)", true),
        column("placed_at", "datetime2(3)", true), column("ref", "uniqueidentifier", true),
        column("paid", "bit", true), column("ratio", "float", true), column("due", "date", true));

    @TempDir
    Path dir;
    ClickHouseEndpoint ch;
    String db;
    String serving;

    static SourceColumn column(String name, String type, boolean nullable) {
        var t = SqlServerTypeNames.parse(type).orElseThrow();
        return new SourceColumn(name, SqlServerTypeNames.name(t), nullable, t);
    }

    @BeforeEach
    void open() {
        ch = TestEngines.clickhouse();
        db = TestEngines.newDatabase("typed_log");
        serving = TestEngines.newDatabase("typed_serving");
    }

    @AfterEach
    void close() {
        ch.close();
    }

    static CdcEvent ev(CdcOperation op, String position, int id, String status, Object amount) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("order_id", id);
        data.put("status", status);
        data.put("amount", amount);
        data.put("placed_at", "2024-01-02T03:04:05.120");
        data.put("ref", "6F9619FF-8B86-D011-B42D-00C04FC964FF");
        data.put("paid", id % 2 == 0);
        data.put("ratio", new BigDecimal("0.1"));
        data.put("due", "2024-02-29");
        return new CdcEvent(op, position, 0, "dbo", "orders", data, Map.of());
    }

    SinkReceipt apply(String batchId, List<SourceColumn> columns, CdcEvent... events) {
        return new ClickHouseCdcSinkApplier(ch, db, "orders_cdc", new EventIdentityIdempotency(), dir.resolve("spool"))
            .apply(STREAM, new CdcApplyBatch(batchId, "run-1", List.of(events), columns));
    }

    @Test
    void aTypedLogMaterializesIntoTheFullRefreshTypes() {
        assertTrue(apply("b1", COLUMNS, ev(CdcOperation.insert, "0x10", 1, "new", new BigDecimal("120.5")),
            ev(CdcOperation.insert, "0x11", 2, "new", null)).passed());
        // a later batch without types is written with the types the log recorded
        assertTrue(apply("b2", List.of(), ev(CdcOperation.update, "0x12", 1, "paid", new BigDecimal("99.99")),
            ev(CdcOperation.delete, "0x13", 2, "new", null)).passed());
        List<List<String>> logTypes = ch.query("SELECT name, type FROM system.columns WHERE database = "
            + ClickHouseSql.literal(db) + " AND table = 'orders_cdc' AND name IN ('order_id', 'amount', 'placed_at')"
            + " ORDER BY name");
        assertEquals(List.of(List.of("amount", "Nullable(Decimal(10, 2))"), List.of("order_id", "Nullable(Int32)"),
            List.of("placed_at", "Nullable(DateTime64(3, 'UTC'))")), logTypes);

        Map<String, Object> report = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(
            db + ".orders_cdc", serving + ".orders", List.of("order_id"), DeleteMode.exclude_deleted), null);
        assertEquals(true, report.get("passed"), String.valueOf(report.get("blockers")));
        assertEquals(true, report.get("typed"));
        List<List<String>> types = ch.query("SELECT name, type FROM system.columns WHERE database = "
            + ClickHouseSql.literal(serving) + " AND table = 'orders' AND name NOT LIKE 'dpone_cdc_%' ORDER BY position");
        assertEquals(List.of(List.of("order_id", "Int32"), List.of("status", "String"),
            List.of("amount", "Nullable(Decimal(10, 2))"), List.of("placed_at", "Nullable(DateTime64(3, 'UTC'))"),
            List.of("ref", "Nullable(UUID)"), List.of("paid", "Nullable(Bool)"), List.of("ratio", "Nullable(Float64)"),
            List.of("due", "Nullable(Date32)")), types);
        assertEquals(List.of(List.of("1", "paid", "99.99", "2024-01-02 03:04:05.120",
            "6f9619ff-8b86-d011-b42d-00c04fc964ff", "false", "0.1", "2024-02-29")),
            ch.query("SELECT order_id, status, amount, placed_at, ref, paid, ratio, due FROM "
                + ClickHouseSql.table(serving, "orders")));
        assertEquals("0", ch.query("SELECT count() FROM " + ClickHouseSql.table(serving, "orders")
            + " WHERE reinterpretAsUInt64(ratio) != reinterpretAsUInt64(toFloat64(0.1))").get(0).get(0),
            "the float's bits are the JSON number's nearest double");
    }

    @Test
    void aValueThatDoesNotFitIsATypedBlockerNamingStreamColumnAndPosition() {
        DponeException e = assertThrows(DponeException.class, () -> apply("b1", COLUMNS,
            ev(CdcOperation.insert, "0x10", 1, "new", new BigDecimal("1.005"))));
        assertEquals(CdcBlockers.VALUE_OUT_OF_RANGE, e.blockers().get(0).code());
        String message = e.blockers().get(0).message();
        assertTrue(message.contains("orders-cdc") && message.contains("amount") && message.contains("0x10"), message);
        assertFalse(message.contains("1.005"), "no source value in the message: " + message);
        assertEquals("0", ch.query("SELECT count() FROM system.tables WHERE database = " + ClickHouseSql.literal(db)
            + " AND name = 'orders_cdc' AND total_rows > 0").get(0).get(0), "nothing was written");
    }

    @Test
    void aNarrowingOrAKeyChangeBlocksAddedWidenedAndDroppedColumnsEvolveTheLog() {
        assertTrue(apply("b1", COLUMNS, ev(CdcOperation.insert, "0x10", 1, "new", BigDecimal.ONE)).passed());
        // narrowed (one integer digit fewer), another family, a retyped key, a dropped key: blocked, nothing written
        String[][] blocked = {{"amount", "decimal(9,2)"}, {"ratio", "nvarchar(20)"}, {"order_id", "bigint"},
            {"order_id", null}};
        for (String[] change : blocked) {
            List<SourceColumn> changed = new java.util.ArrayList<>(COLUMNS);
            int at = COLUMNS.stream().map(SourceColumn::name).toList().indexOf(change[0]);
            if (change[1] == null) {
                changed.remove(at);
            } else {
                changed.set(at, column(change[0], change[1], COLUMNS.get(at).nullable()));
            }
            DponeException e = assertThrows(DponeException.class, () -> apply("b2", changed,
                ev(CdcOperation.insert, "0x11", 2, "new", BigDecimal.ONE)));
            assertEquals(CdcBlockers.SCHEMA_CHANGED, e.blockers().get(0).code(), change[0]);
            assertEquals("source.columns." + change[0], e.blockers().get(0).subject());
            assertTrue(e.blockers().get(0).message().contains("hand the table over anew"),
                e.blockers().get(0).message());
        }
        assertEquals("1", ch.query("SELECT count() FROM " + ClickHouseSql.table(db, "orders_cdc")).get(0).get(0));

        // widened amount, NOT NULL status now nullable, due dropped, region added NOT NULL: the log evolves
        List<SourceColumn> evolved = new java.util.ArrayList<>(COLUMNS.subList(0, 7));
        evolved.set(1, column("status", "nvarchar(20)", true));
        evolved.set(2, column("amount", "decimal(14,3)", true));
        evolved.add(column("region", "int", false));
        CdcEvent e = ev(CdcOperation.insert, "0x11", 2, "new", new BigDecimal("12345678901.125"));
        Map<String, Object> data = new LinkedHashMap<>(e.data());
        data.remove("due");
        data.put("region", 7);
        assertTrue(apply("b2", evolved, new CdcEvent(CdcOperation.insert, "0x11", 0, "dbo", "orders", data,
            Map.of())).passed());
        assertEquals(List.of(List.of("amount", "Nullable(Decimal(14, 3))", "dpone.cdc_column.v1 mssql=decimal(14,3) "
                + "nullable=1"), List.of("due", "Nullable(Date32)", "dpone.cdc_column.v1 mssql=date nullable=1"),
            List.of("region", "Nullable(Int32)", "dpone.cdc_column.v1 mssql=int nullable=1"),
            List.of("status", "Nullable(String)", "dpone.cdc_column.v1 mssql=nvarchar(max) nullable=1")),
            ch.query("SELECT name, type, comment FROM system.columns WHERE database = " + ClickHouseSql.literal(db)
                + " AND table = 'orders_cdc' AND name IN ('amount', 'due', 'region', 'status') ORDER BY name"));
        assertEquals(List.of(List.of("1", "1", "2024-02-29", "\\N"), List.of("2", "12345678901.125", "\\N", "7")),
            ch.query("SELECT order_id, amount, ifNull(toString(due), '\\\\N'), ifNull(toString(region), "
                + "'\\\\N') FROM " + ClickHouseSql.table(db, "orders_cdc") + " ORDER BY order_id"));
    }
}
