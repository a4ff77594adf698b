package io.dpone.source;

import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.manifest.ValuePolicies;
import io.dpone.manifest.ValuePolicy;
import io.dpone.source.types.BinaryType;
import io.dpone.source.types.ColumnType;
import io.dpone.source.types.DateType;
import io.dpone.source.types.IntegerType;
import io.dpone.source.types.StringType;
import io.dpone.source.types.TimestampType;
import io.dpone.source.types.TypeMapper;
import java.util.List;
import java.util.Locale;

/**
 * How one source column is read: the column itself, a server-side conversion, or not at all (a typed refusal with
 * the way out). The types no JDBC value carries exactly are converted by SQL Server in the SELECT:
 * <ul>
 *   <li>{@code hierarchyid}: {@code CAST(c AS nvarchar(4000))}, its canonical path ({@code /1/2/});</li>
 *   <li>{@code geography}/{@code geometry}: {@code c.AsBinaryZM()}, the OGC well-known binary with any Z and M
 *       values, plus a second column {@code <c>__srid} ({@code c.STSrid}, Int32);</li>
 *   <li>{@code sql_variant} under the {@code as_text} policy: {@code CAST(c AS nvarchar(4000))} plus
 *       {@code <c>__type}, its base type's name ({@code SQL_VARIANT_PROPERTY(c, 'BaseType')}); refused otherwise.</li>
 * </ul>
 * A CLR user-defined type other than these has no exact mapping and is refused. Names come validated and are
 * bracket-quoted ({@link SqlServerDialect#quote}); nothing is spliced raw.
 */
public final class ColumnReads {
    /** The suffix of the SRID column a spatial column adds. */
    public static final String SRID_SUFFIX = "__srid";
    /** The suffix of the base-type column a {@code sql_variant} under {@code as_text} adds. */
    public static final String TYPE_SUFFIX = "__type";

    private ColumnReads() {
    }

    /** One column of the getColumns answer. {@code clrType}: the driver says it is a CLR user-defined type. */
    public record Described(String name, int jdbcType, String typeName, int size, int scale, boolean nullable,
                            boolean clrType) {
    }

    /** The columns {@code d} is read as, or why it is refused (exactly one of the two is non-null). */
    public record Result(List<SourceColumn> columns, Blocker refusal) {
    }

    /**
     * Maps {@code d} under {@code policy}; {@code where} names the column in a refusal ({@code dbo.t.c}),
     * {@code policyPath} the manifest path of its policy.
     */
    public static Result read(Described d, ValuePolicy policy, String where, String policyPath) {
        return read(d, policy, where, policyPath, null);
    }

    /**
     * As {@link #read(Described, ValuePolicy, String, String)}, the column referenced as {@code qualifier.[name]} in
     * its conversions ({@code [t]} in a join), or unqualified when {@code qualifier} is {@code null}.
     */
    public static Result read(Described d, ValuePolicy policy, String where, String policyPath, String qualifier) {
        String type = d.typeName() == null ? "" : d.typeName().toLowerCase(Locale.ROOT);
        String q = (qualifier == null ? "" : qualifier + ".") + SqlServerDialect.quote(d.name());
        if ((type.equals("geography") || type.equals("geometry") || type.equals("sql_variant"))
            && !io.dpone.manifest.Identifier.valid(d.name() + SRID_SUFFIX)) {
            return refused(BlockerCode.SOURCE_TYPE_UNSUPPORTED, where, "column name " + d.name() + " is too long for"
                + " the column dpone adds beside it (" + SRID_SUFFIX + "/" + TYPE_SUFFIX + "): rename it in a view");
        }
        switch (type) {
            case "hierarchyid":
                return checked(d, policy, where, policyPath, List.of(column(d, new StringType(),
                    "CAST(" + q + " AS nvarchar(4000))", policy)));
            case "geography", "geometry":
                return checked(d, policy, where, policyPath, List.of(
                    column(d, new BinaryType(), q + ".AsBinaryZM()", policy),
                    new SourceColumn(d.name() + SRID_SUFFIX, "int", d.nullable(), new IntegerType(32, false),
                        q + ".STSrid", policy)));
            case "sql_variant":
                if (policy != ValuePolicy.AS_TEXT) {
                    return refused(BlockerCode.SOURCE_TYPE_UNSUPPORTED, where, "source type sql_variant has no single"
                        + " ClickHouse type: declare " + policyPath + ": as_text (String plus a " + d.name()
                        + TYPE_SUFFIX + " column naming each value's base type), leave the column out with"
                        + " source.columns, or convert it in a view");
                }
                return new Result(List.of(column(d, new StringType(), "CAST(" + q + " AS nvarchar(4000))", policy),
                    new SourceColumn(d.name() + TYPE_SUFFIX, "sysname", d.nullable(), new StringType(),
                        "CAST(SQL_VARIANT_PROPERTY(" + q + ", 'BaseType') AS nvarchar(128))", policy)), null);
            default:
                break;
        }
        if (d.clrType()) {
            return refused(BlockerCode.SOURCE_TYPE_UNSUPPORTED, where, "source type " + d.typeName() + " is a CLR"
                + " user-defined type with no exact ClickHouse mapping: leave the column out with source.columns, or"
                + " convert it in a view (for example to its text or binary form)");
        }
        var mapped = TypeMapper.map(d.jdbcType(), d.typeName(), d.size(), d.scale());
        if (mapped.isEmpty()) {
            return refused(BlockerCode.SOURCE_TYPE_UNSUPPORTED, where, "source type " + d.typeName()
                + " has no exact ClickHouse mapping: leave the column out with source.columns, or convert it in a"
                + " view");
        }
        return checked(d, policy, where, policyPath, List.of(column(d, mapped.get(), null, policy)));
    }

    private static SourceColumn column(Described d, ColumnType type, String readSql, ValuePolicy policy) {
        return new SourceColumn(d.name(), d.typeName(), d.nullable(), type, readSql, policy);
    }

    /** Refuses a policy that cannot apply to the column ({@code as_text} off a sql_variant, {@code null} on NOT NULL). */
    private static Result checked(Described d, ValuePolicy policy, String where, String policyPath,
                                  List<SourceColumn> columns) {
        if (policy == ValuePolicy.AS_TEXT) {
            return refused(BlockerCode.MANIFEST_INVALID_VALUE, policyPath, "as_text applies to sql_variant columns"
                + " only; " + where + " is " + d.typeName());
        }
        if (policy == ValuePolicy.NULL && !d.nullable()) {
            return refused(BlockerCode.MANIFEST_INVALID_VALUE, policyPath, "null needs a nullable column; " + where
                + " is NOT NULL (use clamp, or refuse)");
        }
        return new Result(columns, null);
    }

    private static Result refused(BlockerCode code, String where, String message) {
        return new Result(null, Blocker.of(code, where, message));
    }

    /** True when a value of {@code type} can fall outside what ClickHouse holds, so a policy can change it. */
    public static boolean rangeLimited(ColumnType type) {
        return type instanceof DateType || type instanceof TimestampType;
    }

    /**
     * The policy in force for a column: its declared one, else the table's default where the default can apply
     * (to columns whose values can fall outside ClickHouse's range, {@code null} only to nullable ones, none to
     * primary-key columns: a clamped or nulled key could merge two rows, so a key column takes a policy only when the
     * manifest names it, and then it is refused).
     */
    public static ValuePolicy policyInForce(ValuePolicies policies, Described d, boolean key) {
        boolean declared = policies.columns().keySet().stream().anyMatch(k -> k.equalsIgnoreCase(d.name()));
        ValuePolicy p = policies.forColumn(d.name());
        if (declared) {
            return key && (p == ValuePolicy.CLAMP || p == ValuePolicy.NULL) ? ValuePolicy.REFUSE : p;
        }
        boolean canChange = TypeMapper.map(d.jdbcType(), d.typeName(), d.size(), d.scale())
            .filter(ColumnReads::rangeLimited).isPresent();
        return key || !canChange || (p == ValuePolicy.NULL && !d.nullable()) ? ValuePolicy.REFUSE : p;
    }
}
