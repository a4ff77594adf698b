package io.dpone.quality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.dpone.manifest.TableRef;
import io.dpone.source.SourceColumn;
import io.dpone.source.SourceTable;
import io.dpone.source.types.IntegerType;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Only a single-column NOT NULL primary key may stand in for a distinct set (its count is the row count). */
class SourceStatsCollectorUniqueKeyTest {
    private static SourceTable table(boolean idNullable, String... key) {
        return new SourceTable(new TableRef("dbo", "t"), List.of(
            new SourceColumn("Id", "int", idNullable, new IntegerType(32, false)),
            new SourceColumn("line", "int", false, new IntegerType(32, false))), List.of(key));
    }

    @Test
    void singleNotNullKey() {
        assertEquals("Id", SourceStatsCollector.uniqueKey(table(false, "id")));
    }

    @Test
    void compositeNullableOrMissingKeysKeepTheSet() {
        assertNull(SourceStatsCollector.uniqueKey(table(false, "id", "line")));
        assertNull(SourceStatsCollector.uniqueKey(table(true, "id")));
        assertNull(SourceStatsCollector.uniqueKey(table(false)));
        assertNull(SourceStatsCollector.uniqueKey(table(false, "not_selected")));
    }
}
