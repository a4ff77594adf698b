package io.dpone.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.testing.TestEngines;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The staged-key set a chunk-level resume skips by, read from a real engine in pages. */
@io.dpone.testing.EngineTest
class KeyIslandsTest {
    @Test
    void readsEveryKeyAsRunsOfConsecutiveValuesAcrossPages() {
        String db = TestEngines.newDatabase("islands");
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            ch.execute("CREATE DATABASE " + ClickHouseSql.id(db));
            ch.execute("CREATE TABLE " + ClickHouseSql.table(db, "t") + " (k Int64) ENGINE = MergeTree ORDER BY k");
            TreeSet<Long> keys = new TreeSet<>();
            SplittableRandom random = new SplittableRandom(7);
            StringBuilder values = new StringBuilder();
            for (int i = 0; i < 3_000; i++) {
                long k = random.nextLong(-2_000, 4_000); // negative keys, gaps, repeats
                keys.add(k);
                values.append(i == 0 ? "" : ",").append('(').append(k).append(')');
            }
            ch.execute("INSERT INTO " + ClickHouseSql.table(db, "t") + " VALUES " + values);

            KeyIslands islands = KeyIslands.read(ch, db, "t", "k", 1_000_000, 50).orElseThrow();
            assertEquals(keys.size(), islands.keys());
            assertTrue(islands.islands() > 50, "more islands than one page: " + islands.islands());
            for (long k = -2_100; k <= 4_100; k++) {
                assertEquals(keys.contains(k), islands.contains(k), "key " + k);
            }
            assertTrue(KeyIslands.read(ch, db, "t", "k", islands.islands() - 1, 50).isEmpty(),
                "more islands than allowed gives up");
            ch.execute("DROP DATABASE " + ClickHouseSql.id(db));
        }
    }

    @Test
    void anEmptyTableHoldsNoKey() {
        assertFalse(KeyIslands.empty().contains(0));
        assertThrows(IllegalArgumentException.class, () -> new KeyIslands(new long[] {1, 2}, new long[] {3, 4}));
    }
}
