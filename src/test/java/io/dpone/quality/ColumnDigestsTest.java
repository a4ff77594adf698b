package io.dpone.quality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.source.SourceColumn;
import io.dpone.source.types.DecimalType;
import io.dpone.source.types.FloatType;
import io.dpone.source.types.IntegerType;
import io.dpone.source.types.StringType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Only the columns a fidelity gate compares get a per-column hash, on both sides; the hashes of those columns still
 * move with one changed byte, and a hash missing on either side fails the gate instead of passing it.
 */
class ColumnDigestsTest {
    private static final long[] ROW = {11L, 22L, 33L}; // value hashes: id | flag | price

    @Test
    void hashesOnlyTheFidelityColumns() {
        List<SourceColumn> table = List.of(new SourceColumn("id", "bigint", false, new IntegerType(64, false)),
            new SourceColumn("amount", "decimal", true, new DecimalType(18, 4)),
            new SourceColumn("price", "float", true, new FloatType(64)),
            new SourceColumn("name", "nvarchar", true, new StringType()));
        assertEquals(List.of("amount", "price", "name"), FidelityColumns.all(table));
        assertEquals(List.of("amount"), FidelityColumns.decimal(table));
        assertEquals(List.of("price"), FidelityColumns.floats(table));
        assertEquals(List.of("name"), FidelityColumns.unicode(table));

        ColumnDigests d = new ColumnDigests(List.of("id", "flag", "price"), List.of("price"), List.of("id"));
        d.add(ROW);
        assertEquals(List.of("price"), List.copyOf(d.columnHashes().keySet()));
        assertEquals(Map.of("price", 33L), d.columnHashes());
        assertEquals(Map.of("id", 1L), d.distinctCounts());

        ColumnDigests changed = new ColumnDigests(List.of("id", "flag", "price"), List.of("price"), List.of());
        long[] row = ROW.clone();
        row[2] ^= 1; // one bit of price's value hash
        changed.add(row);
        assertNotEquals(d.columnHashes().get("price"), changed.columnHashes().get("price"));
    }

    @Test
    void theUniqueKeyIsCountedByRowsAndOtherDistinctColumnsBySet() {
        ColumnDigests d = new ColumnDigests(List.of("id", "flag", "price"), List.of(), List.of("id", "flag"), "ID");
        long[] row = ROW.clone();
        for (int i = 0; i < 5; i++) {
            row[0] = i;
            d.add(row);
        }
        d.add(row); // the same id again: a key constraint would not allow it, and the set is not kept
        assertEquals(Map.of("id", 6L, "flag", 1L), d.distinctCounts());

        ColumnDigests bySet = new ColumnDigests(List.of("id", "flag", "price"), List.of(), List.of("id"), null);
        bySet.add(ROW);
        bySet.add(ROW);
        assertEquals(Map.of("id", 1L), bySet.distinctCounts());
    }

    @Test
    void aHashMissingOnEitherSideFailsTheFidelityGate() {
        FidelityGate gate = new FidelityGate("float", List.of("price"));
        SourceStats withHash = new SourceStats(1, Map.of(), 0, 1, 9, Map.of("price", 42L), Map.of());
        SourceStats without = new SourceStats(1, Map.of(), 0, 1, 9, Map.of(), Map.of());
        TargetStats target = new TargetStats(1, Map.of(), 0, 1, true, 0, Map.of("price", 42L), Map.of());
        TargetStats targetWithout = new TargetStats(1, Map.of(), 0, 1, true, 0, Map.of(), Map.of());
        assertEquals("passed", gate.evaluate(withHash, target).status());
        assertTrue(gate.evaluate(without, target).isFailed());
        assertTrue(gate.evaluate(withHash, targetWithout).isFailed());
    }
}
