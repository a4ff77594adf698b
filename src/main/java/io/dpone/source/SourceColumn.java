package io.dpone.source;

import io.dpone.manifest.ValuePolicy;
import io.dpone.source.types.ColumnType;

/**
 * A source column with its mapped type family. {@code readSql} is the T-SQL expression the column is read with when
 * it is not the column itself (a server-side conversion such as {@code CAST([h] AS nvarchar(4000))} for a
 * {@code hierarchyid}, built by {@link ColumnReads} from validated, quoted names; {@code null} reads the column);
 * {@code policy} is the declared value policy in force for it.
 */
public record SourceColumn(String name, String sourceType, boolean nullable, ColumnType type, String readSql,
                           ValuePolicy policy) {
    public SourceColumn {
        policy = policy == null ? ValuePolicy.REFUSE : policy;
    }

    /** A column read as itself, values ClickHouse cannot hold refused. */
    public SourceColumn(String name, String sourceType, boolean nullable, ColumnType type) {
        this(name, sourceType, nullable, type, null, ValuePolicy.REFUSE);
    }

    /** The ClickHouse column type, Nullable-wrapped when the source column is nullable. */
    public String clickHouseType() {
        return nullable ? "Nullable(" + type.clickHouseType() + ")" : type.clickHouseType();
    }

    /** The select-list item that reads this column: the quoted name, or the conversion aliased to it. */
    public String selectItem() {
        String id = SqlServerDialect.quote(name);
        return readSql == null ? id : readSql + " AS " + id;
    }
}
