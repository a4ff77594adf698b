package io.dpone.quality;

import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The target carries the four {@code __dpone__} metadata columns, filled on every row; the details name the columns
 * checked ({@code columns}).
 */
public final class MetadataColumnsGate implements QualityGate {
    @Override
    public String name() {
        return "metadata_columns";
    }

    @Override
    public GateResult evaluate(SourceStats source, TargetStats target) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("columns", target.metadataColumns());
        d.put("present", target.metadataColumnsPresent());
        d.put("rows_with_missing_values", target.rowsWithBadMetadata());
        return target.metadataColumnsPresent() && target.rowsWithBadMetadata() == 0 ? GateResult.passed(name(), d)
            : GateResult.failed(name(), d, Blocker.of(BlockerCode.QUALITY_METADATA_COLUMNS_MISSING, name(),
                "the __dpone__ metadata columns are missing or empty", d));
    }
}
