package io.dpone.quality;

import io.dpone.source.SourceColumn;
import io.dpone.source.types.ColumnType;
import io.dpone.source.types.DecimalType;
import io.dpone.source.types.FloatType;
import io.dpone.source.types.StringType;
import java.util.List;

/**
 * The columns the fidelity gates compare, per type family: decimal, float and unicode (text). Only these get a
 * per-column typed hash, on the source ({@link ColumnDigests}) and on the target side alike; every other column is
 * still covered by the row typed hash.
 */
public final class FidelityColumns {
    private FidelityColumns() {
    }

    public static List<String> decimal(List<SourceColumn> columns) {
        return of(columns, DecimalType.class);
    }

    public static List<String> floats(List<SourceColumn> columns) {
        return of(columns, FloatType.class);
    }

    public static List<String> unicode(List<SourceColumn> columns) {
        return of(columns, StringType.class);
    }

    /** Every column some fidelity gate compares, in table order. */
    public static List<String> all(List<SourceColumn> columns) {
        return columns.stream().filter(c -> c.type() instanceof DecimalType || c.type() instanceof FloatType
            || c.type() instanceof StringType).map(SourceColumn::name).toList();
    }

    private static List<String> of(List<SourceColumn> columns, Class<? extends ColumnType> family) {
        return columns.stream().filter(c -> family.isInstance(c.type())).map(SourceColumn::name).toList();
    }
}
