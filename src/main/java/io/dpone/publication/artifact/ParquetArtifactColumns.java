package io.dpone.publication.artifact;

import io.dpone.clickhouse.ClickHouseSql;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

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

    /** {@code name FileType, ...} for {@code file()} / {@code input()}. */
    public static String structure(List<TableDefinition.Column> columns) {
        return columns.stream().map(c -> ClickHouseSql.id(c.name()) + " " + fileType(c.type()))
            .collect(Collectors.joining(", "));
    }

    /** The select list that yields every target type exactly. */
    public static String selectList(List<TableDefinition.Column> columns) {
        return columns.stream().map(c -> fileType(c.type()).equals(c.type()) ? ClickHouseSql.id(c.name())
                : "CAST(" + ClickHouseSql.id(c.name()) + ", " + ClickHouseSql.literal(c.type()) + ")")
            .collect(Collectors.joining(", "));
    }

    /** The quoted column list. */
    public static String columnList(List<TableDefinition.Column> columns) {
        return ClickHouseSql.idList(columns.stream().map(TableDefinition.Column::name).toList());
    }
}
