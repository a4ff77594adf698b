package io.dpone.cdc.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.cdc.local.JsonEventsReader;
import io.dpone.cdc.runtime.CdcMode;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.cdc.runtime.CdcRuntime;
import io.dpone.cdc.runtime.CdcRuntimeRunReport;
import io.dpone.cdc.runtime.CdcTick;
import io.dpone.cdc.runtime.CdcTickRunner;
import io.dpone.cdc.runtime.ClickHouseCdcAdapters;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.testing.TestEngines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A full runtime tick (Camel route) with the shipped example events, the ClickHouse log and offset table. */
@io.dpone.testing.EngineTest
class ClickHouseCdcTickTest {
    @TempDir
    Path dir;

    @Test
    void aTickAppliesCommitsAndARerunWritesNothingTwice() throws Exception {
        String db = TestEngines.newDatabase("cdc_tick");
        Path events = Files.copy(Path.of("examples/cdc/orders/events.json"), dir.resolve("events.json"));
        CdcRunOptions options = CdcRunOptions.builder(CdcMode.local).systems("mssql", "clickhouse")
            .backend("mssql_cdc").pipelineName("orders-cdc").sourceTable("dbo", "orders")
            .targetDataset(db + ".orders_cdc").uniqueKeys(List.of("order_id")).eventsJson(events)
            .checkpointJson(dir.resolve("checkpoint.json")).outputDir(dir).build();
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            CdcRuntimeRunReport first = tick(options, ch);
            assertTrue(first.passed() && first.committed(), String.valueOf(first.blockers()));
            long rows = Long.parseLong(ch.query("SELECT count() FROM " + ClickHouseSql.table(db, "orders_cdc"))
                .get(0).get(0));
            assertEquals(first.counts().applied(), rows);
            assertEquals("0x14", new ClickHouseOffsetStore(ch, db, ClickHouseCdcAdapters.OFFSETS_TABLE)
                .load(options.stream()).orElseThrow().token());

            CdcRuntimeRunReport again = tick(options, ch);
            assertTrue(again.passed(), String.valueOf(again.blockers()));
            assertEquals(first.counts().read(), again.counts().replayed());
            assertEquals(rows, Long.parseLong(ch.query("SELECT count() FROM " + ClickHouseSql.table(db, "orders_cdc"))
                .get(0).get(0)));

            Map<String, Object> m = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(db + ".orders_cdc",
                db + ".orders_current", List.of("order_id"), CdcMaterializer.DeleteMode.exclude_deleted), null);
            assertEquals(true, m.get("passed"), String.valueOf(m.get("blockers")));
        }
    }

    private CdcRuntimeRunReport tick(CdcRunOptions options, ClickHouseEndpoint ch) {
        CdcTick.Adapters adapters = ClickHouseCdcAdapters.adapters(
            new JsonEventsReader(options.eventsJson(), options.stream()), ch, options.stream(),
            dir.resolve("sink/spool"));
        return CdcTickRunner.run(new CdcTick(CdcRuntime.newRunId(), options, adapters, CdcTick.DEFAULT_MAX_EVENTS));
    }
}
