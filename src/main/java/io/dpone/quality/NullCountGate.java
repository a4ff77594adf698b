package io.dpone.quality;

import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** NULL counts match by column. */
public final class NullCountGate implements QualityGate {
    @Override
    public String name() {
        return "null_counts";
    }

    @Override
    public GateResult evaluate(SourceStats source, TargetStats target) {
        Map<String, Object> mismatched = new LinkedHashMap<>();
        source.nullCounts().forEach((column, expected) -> {
            Long actual = target.nullCounts().get(column);
            if (!expected.equals(actual)) {
                mismatched.put(column, Map.of("source", expected, "target", actual == null ? -1L : actual));
            }
        });
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("columns_checked", source.nullCounts().size());
        if (mismatched.isEmpty()) {
            return GateResult.passed(name(), d);
        }
        d.put("mismatched_columns", mismatched);
        return GateResult.failed(name(), d, Blocker.of(BlockerCode.QUALITY_NULL_COUNT_MISMATCH, name(),
            "NULL counts differ in " + List.copyOf(mismatched.keySet()), d));
    }
}
