package io.dpone.publication.artifact;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How ClickHouse reads a sealed Parquet artifact back, from the artifact's recorded column types alone (the
 * members never see the source). It mirrors {@link io.dpone.format.parquet.ParquetColumn}: every type is read as
 * itself except {@code DateTime64(n, 'UTC')}, which the file holds as {@code DateTime64(3)} (n &le; 3),
 * {@code DateTime64(6)} (n &le; 6) or {@code Decimal(11+n, n)} seconds (n &ge; 7) and is cast back exactly.
 */
public final class ParquetArtifactColumns {
    private static final Pattern NULLABLE = Pattern.compile("^Nullable\\((.*)\\)$");
    private static final Pattern TIMESTAMP = Pattern.compile("^DateTime64\\((\\d), 'UTC'\\)$");

    private ParquetArtifactColumns() {
    }

    /** The type the file column has, Nullable-wrapped like the target type. */
    public static String fileType(String targetType) {
        Matcher n = NULLABLE.matcher(targetType);
        if (n.matches()) {
            return "Nullable(" + fileType(n.group(1)) + ")";
        }
        Matcher t = TIMESTAMP.matcher(targetType);
        if (!t.matches()) {
            return targetType;
        }
        int precision = Integer.parseInt(t.group(1));
        if (precision <= 3) {
            return "DateTime64(3, 'UTC')";
        }
        if (precision <= 6) {
            return "DateTime64(6, 'UTC')";
        }
        return "Decimal(" + (11 + precision) + ", " + precision + ")";
    }
}
