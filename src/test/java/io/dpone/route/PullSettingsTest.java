package io.dpone.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseOperations;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.KnownSettings;
import io.dpone.format.ChunkFormats;
import io.dpone.testing.TestEngines;
import java.util.List;
import java.util.Map;
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
        Map<String, String> all = PullProcessor.settings(true, ChunkFormats.byName("parquet"));
        Map<String, String> chunk = PullProcessor.settings(false, ChunkFormats.byName("parquet"));
        assertEquals(List.of("s3_throw_on_zero_files_match", "1"), List.of(all.keySet().iterator().next(),
            all.get("s3_throw_on_zero_files_match")));
        assertEquals("1", chunk.get("s3_throw_on_zero_files_match"));
        assertEquals("100000", all.get("min_insert_block_size_rows"));
        assertFalse(chunk.containsKey("min_insert_block_size_rows"));
        Map<String, String> tsv = PullProcessor.settings(true, ChunkFormats.byName("tsv"));
        assertTrue(tsv.entrySet().containsAll(ClickHouseOperations.settings(ChunkFormats.byName("tsv")
            .insertSettings()).entrySet()), "the format's own settings stay");
        assertEquals(2, parts(list(all)), all.toString());
        assertEquals(1, parts(list(chunk)), chunk.toString());
    }

    @Test
    void theParquetReadBudgetIsSentOnlyWhereTheServerKnowsIt() {
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            assertEquals(Set.of("input_format_parquet_memory_high_watermark"), KnownSettings.of(ch,
                List.of("input_format_parquet_memory_high_watermark", "dpone_no_such_setting")));
            assertEquals(Set.of(), KnownSettings.of(ch, List.of()));
            Map<String, String> settings = PullProcessor.readSettings(ch);
            assertEquals(Map.of("input_format_parquet_memory_high_watermark", "134217728"), settings);
            Map<String, String> both = new java.util.LinkedHashMap<>(PullProcessor.settings(true,
                ChunkFormats.byName("parquet")));
            both.putAll(settings);
            ch.query("SELECT 1 SETTINGS " + list(both));
        }
    }

    private static String list(Map<String, String> settings) {
        return settings.entrySet().stream().map(e -> e.getKey() + " = " + e.getValue())
            .collect(java.util.stream.Collectors.joining(", "));
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
