package io.dpone.quality;

import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Decimal, Float or Unicode fidelity: for every column of one type family, the per-column typed hash (sum of
 * the column's value hashes, {@link TypedRowHasher}) matches between source and target, so a rounded decimal, a
 * float off by one ulp or one changed UTF-8 byte is pinned to its column.
 */
public final class FidelityGate implements QualityGate {
    private final String family;
    private final List<String> columns;

    /** {@code family}: decimal, float or unicode; {@code columns}: the source columns of that family. */
    public FidelityGate(String family, List<String> columns) {
        this.family = family;
        this.columns = List.copyOf(columns);
    }

    @Override
    public String name() {
        return family + "_fidelity";
    }

    @Override
    public GateResult evaluate(SourceStats source, TargetStats target) {
        if (columns.isEmpty()) {
            return GateResult.skipped(name(), "no " + family + " columns");
        }
        List<String> differing = new ArrayList<>();
        for (String c : columns) {
            Long s = source.columnHashes().get(c);
            if (s == null || !s.equals(target.columnHashes().get(c))) { // a hash missing on either side is no pass
                differing.add(c);
            }
        }
        Map<String, Object> d = Map.of("columns_checked", columns, "differing_columns", differing);
        return differing.isEmpty() ? GateResult.passed(name(), d) : GateResult.failed(name(), d,
            Blocker.of(BlockerCode.QUALITY_FIDELITY_MISMATCH, name(), family + " values differ in " + differing, d));
    }
}
