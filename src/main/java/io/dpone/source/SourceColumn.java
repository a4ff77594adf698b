package io.dpone.source;

import io.dpone.source.types.ColumnType;

/** A source column with its mapped type family. */
public record SourceColumn(String name, String sourceType, boolean nullable, ColumnType type) {
    /** The ClickHouse column type, Nullable-wrapped when the source column is nullable. */
    public String clickHouseType() {
        return nullable ? "Nullable(" + type.clickHouseType() + ")" : type.clickHouseType();
    }
}
