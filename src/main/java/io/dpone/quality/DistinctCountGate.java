package io.dpone.quality;

import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import java.util.LinkedHashMap;
import java.util.Map;

/** Distinct counts match for the columns listed in {@code quality.distinct_columns} (key, text, status columns). */
public final class DistinctCountGate implements QualityGate {
    @Override
    public String name() {
        return "distinct_counts";
    }

    @Override
    public GateResult evaluate(SourceStats source, TargetStats target) {
        if (source.distinctCounts().isEmpty()) {
            return GateResult.skipped(name(), "no quality.distinct_columns configured");
        }
        Map<String, Object> counts = new LinkedHashMap<>();
        boolean ok = true;
        for (var e : source.distinctCounts().entrySet()) {
            Long t = target.distinctCounts().get(e.getKey());
            counts.put(e.getKey(), Map.of("source", e.getValue(), "target", t == null ? -1L : t));
            ok &= e.getValue().equals(t);
        }
        Map<String, Object> d = Map.of("columns", counts);
        return ok ? GateResult.passed(name(), d) : GateResult.failed(name(), d,
            Blocker.of(BlockerCode.QUALITY_DISTINCT_COUNT_MISMATCH, name(), "distinct counts differ", d));
    }
}
