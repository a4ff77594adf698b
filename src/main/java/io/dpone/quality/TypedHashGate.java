package io.dpone.quality;

import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import java.util.Map;

/**
 * The typed hash matches: both sides sum the row hashes of {@link TypedRowHasher} (built on each value's exact
 * RowBinary bytes), so one flipped bit in any
 * value (a float's last ulp, a decimal digit, one UTF-8 byte, one timestamp tick) changes the result.
 */
public final class TypedHashGate implements QualityGate {
    private final String mode;

    public TypedHashGate(String mode) {
        this.mode = mode;
    }

    @Override
    public String name() {
        return "typed_hash";
    }

    @Override
    public GateResult evaluate(SourceStats source, TargetStats target) {
        if ("off".equals(mode)) {
            return GateResult.skipped(name(), "typed_hash: off in the manifest");
        }
        Map<String, Object> d = Map.of("mode", mode, "source_hash", Long.toUnsignedString(source.typedHash()),
            "target_hash", Long.toUnsignedString(target.typedHash()), "source_rows_hashed", source.hashedRows(),
            "target_rows_hashed", target.hashedRows());
        boolean ok = source.typedHash() == target.typedHash() && source.hashedRows() == target.hashedRows();
        return ok ? GateResult.passed(name(), d)
            : GateResult.failed(name(), d, Blocker.of(BlockerCode.QUALITY_TYPED_HASH_MISMATCH, name(),
                "typed values differ between source and target", d));
    }
}
