package io.dpone.quality;

import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import java.util.Map;

/** source count = target count. */
public final class RowCountGate implements QualityGate {
    @Override
    public String name() {
        return "row_count";
    }

    @Override
    public GateResult evaluate(SourceStats source, TargetStats target) {
        Map<String, Object> d = Map.of("source_rows", source.rows(), "target_rows", target.rows());
        return source.rows() == target.rows() ? GateResult.passed(name(), d)
            : GateResult.failed(name(), d, Blocker.of(BlockerCode.QUALITY_ROW_COUNT_MISMATCH, name(),
                "target has " + target.rows() + " rows, source had " + source.rows(), d));
    }
}
