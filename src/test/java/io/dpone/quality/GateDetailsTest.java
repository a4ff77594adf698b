package io.dpone.quality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The null_counts and metadata_columns gates name what they checked, not only how much. */
class GateDetailsTest {
    static SourceStats source(Map<String, Long> nulls) {
        return new SourceStats(10, nulls, 0, 10, 100, Map.of(), Map.of());
    }

    static TargetStats target(Map<String, Long> nulls, List<String> metadata, boolean present, long bad) {
        return new TargetStats(10, nulls, 0, 10, present, bad, Map.of(), Map.of(), metadata);
    }

    @Test
    void nullCountsGiveSourceAndTargetPerColumnByName() {
        GateResult r = new NullCountGate().evaluate(source(Map.of("status", 2L, "amount", 0L, "note", 5L)),
            target(Map.of("status", 2L, "amount", 0L, "note", 4L), List.of(), true, 0));
        assertTrue(r.isFailed());
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Long>> columns = (Map<String, Map<String, Long>>) r.details().get("columns");
        assertEquals(List.of("amount", "note", "status"), List.copyOf(columns.keySet()));
        assertEquals(Map.of("source", 5L, "target", 4L), columns.get("note"));
        assertEquals(Map.of("source", 2L, "target", 2L), columns.get("status"));
        assertEquals(3, r.details().get("columns_checked"));
        assertEquals(List.of("note"), List.copyOf(((Map<?, ?>) r.details().get("mismatched_columns")).keySet()));
    }

    @Test
    void columnMissingFromTheTargetCountsMinusOne() {
        GateResult r = new NullCountGate().evaluate(source(Map.of("status", 0L)),
            target(Map.of(), List.of(), true, 0));
        assertTrue(r.isFailed());
        assertEquals(Map.of("source", 0L, "target", -1L), ((Map<?, ?>) r.details().get("columns")).get("status"));
    }

    @Test
    void metadataGateNamesTheColumnsItChecked() {
        List<String> four = List.of("__dpone__run_id", "__dpone__load_id", "__dpone__loaded_at",
            "__dpone__extracted_at");
        GateResult ok = new MetadataColumnsGate().evaluate(source(Map.of()), target(Map.of(), four, true, 0));
        assertFalse(ok.isFailed());
        assertEquals(four, ok.details().get("columns"));
        GateResult bad = new MetadataColumnsGate().evaluate(source(Map.of()), target(Map.of(), four, true, 3));
        assertTrue(bad.isFailed());
        assertEquals(four, bad.details().get("columns"));
        assertEquals(3L, bad.details().get("rows_with_missing_values"));
    }

    @Test
    void unionOfTwoBatchesKeepsTheCheckedMetadataColumns() {
        TargetStats a = target(Map.of("x", 1L), List.of("__dpone__run_id"), true, 0);
        TargetStats b = target(Map.of("x", 2L), List.of("__dpone__run_id"), true, 0);
        assertEquals(List.of("__dpone__run_id"), a.plus(b).metadataColumns());
        assertEquals(List.of("__dpone__run_id"), a.plus(b).withDistinctCounts(Map.of()).metadataColumns());
        assertEquals(Map.of("x", 3L), a.plus(b).nullCounts());
    }
}
