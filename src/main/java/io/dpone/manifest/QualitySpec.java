package io.dpone.manifest;

import java.util.List;

/** {@code quality:}. {@code typedHash} is {@code full}, {@code sampled} (every row whose ordinal % modulo == 0) or {@code off}. */
public record QualitySpec(List<String> distinctColumns, String typedHash, int hashSampleModulo) {
    public static final QualitySpec DEFAULT = new QualitySpec(List.of(), "full", 0);

    public QualitySpec {
        distinctColumns = List.copyOf(distinctColumns);
    }
}
