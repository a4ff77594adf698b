package io.dpone.quality;

import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * NULL counts match by column. The details give every column's source and target NULL count ({@code columns}, by
 * name; a column missing from the target counts -1), and the mismatched ones again under {@code mismatched_columns}.
 */
public final class NullCountGate implements QualityGate {
    @Override
    public String name() {
        return "null_counts";
    }

    @Override
    public GateResult evaluate(SourceStats source, TargetStats target) {
        Map<String, Object> mismatched = new LinkedHashMap<>();
        Map<String, Object> columns = new LinkedHashMap<>();
        new TreeMap<>(source.nullCounts()).forEach((column, expected) -> {
            Long actual = target.nullCounts().get(column);
            Map<String, Long> pair = new LinkedHashMap<>();
            pair.put("source", expected);
            pair.put("target", actual == null ? -1L : actual);
            columns.put(column, pair);
            if (!expected.equals(actual)) {
                mismatched.put(column, pair);
            }
        });
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("columns_checked", source.nullCounts().size());
        d.put("columns", columns);
        if (mismatched.isEmpty()) {
            return GateResult.passed(name(), d);
        }
        d.put("mismatched_columns", mismatched);
        return GateResult.failed(name(), d, Blocker.of(BlockerCode.QUALITY_NULL_COUNT_MISMATCH, name(),
            "NULL counts differ in " + List.copyOf(mismatched.keySet()), d));
    }
}
