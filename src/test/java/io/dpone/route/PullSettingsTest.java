package io.dpone.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.KnownSettings;
import io.dpone.format.ChunkFormats;
import io.dpone.testing.TestEngines;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The one-statement pull squashes into insert blocks of 100k rows (bench/README: faster and less memory for one
 * big INSERT ... SELECT), the per-chunk pull keeps the defaults, and every pull refuses an empty glob. Checked on
 * the embedded engine: the settings are accepted and take effect (a 250k-row INSERT ... SELECT lands in several
 * parts instead of one block), and every row lands. The Parquet read budget is asked of the server, and a setting
 * it does not list is never sent.
 */
@io.dpone.testing.EngineTest
class PullSettingsTest {
    @Test
    void theOneStatementPullUsesSmallerInsertBlocks() {
        String all = PullProcessor.settings(true, ChunkFormats.byName("parquet"));
        String chunk = PullProcessor.settings(false, ChunkFormats.byName("parquet"));
        assertTrue(all.startsWith("s3_throw_on_zero_files_match = 1") && chunk.startsWith("s3_throw_on_zero_files_match = 1"));
        assertTrue(PullProcessor.settings(true, ChunkFormats.byName("tsv"))
            .endsWith(ChunkFormats.byName("tsv").insertSettings()), "the format's own settings stay");
        assertEquals(2, parts(all), all);
        assertEquals(1, parts(chunk), chunk);
    }

    @Test
    void theParquetReadBudgetIsSentOnlyWhereTheServerKnowsIt() {
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            assertEquals(Set.of("input_format_parquet_memory_high_watermark"), KnownSettings.of(ch,
                List.of("input_format_parquet_memory_high_watermark", "dpone_no_such_setting")));
            assertEquals(Set.of(), KnownSettings.of(ch, List.of()));
            String settings = PullProcessor.readSettings(ch);
            assertEquals(", input_format_parquet_memory_high_watermark = 134217728", settings);
            ch.query("SELECT 1 SETTINGS " + PullProcessor.settings(true, ChunkFormats.byName("parquet")) + settings);
        }
    }

    private static long parts(String settings) {
        String db = TestEngines.newDatabase("pull");
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            ch.execute("CREATE DATABASE " + ClickHouseSql.id(db));
            String t = ClickHouseSql.table(db, "t");
            ch.execute("CREATE TABLE " + t + " (n UInt64) ENGINE = MergeTree ORDER BY n");
            ch.execute("SYSTEM STOP MERGES " + t);
            ch.execute("INSERT INTO " + t + " SELECT number FROM numbers(250000) SETTINGS " + settings
                + ", max_block_size = 65536, max_insert_threads = 1");
            assertEquals("250000", ch.query("SELECT count() FROM " + t).get(0).get(0));
            long parts = Long.parseLong(ch.query("SELECT count() FROM system.parts WHERE active AND database = "
                + ClickHouseSql.literal(db) + " AND table = 't'").get(0).get(0));
            ch.execute("DROP DATABASE " + ClickHouseSql.id(db));
            return parts;
        }
    }
}
