package io.dpone.cdc.mssql;

import io.dpone.cdc.CdcBlockers;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.manifest.ValuePolicies;
import io.dpone.manifest.ValuePolicy;
import io.dpone.source.PolicyTally;
import io.dpone.source.SourceColumn;
import io.dpone.source.types.ColumnType;
import io.dpone.source.types.SqlServerTypeNames;
import io.dpone.source.types.ValueOutOfRangeException;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The typed columns of one SQL Server table (a source table or a CDC change table), read from JDBC metadata and
 * mapped through the snapshot reader's {@link TypeMapper}, so CDC payload values are exactly the values a full
 * refresh reads (exact decimals, unicode text, DATETIME2 ticks). Columns whose names start with {@code __$} (CDC
 * metadata) are left out. A column name that is not an identifier, or a type without an exact mapping, blocks.
 */
public record PayloadColumns(List<Column> columns, List<String> primaryKey) {
    private static final Pattern IDENTIFIER = io.dpone.manifest.Identifier.PATTERN;

    /**
     * One column: its name, type family, the JDBC type code and size (for typed parameter casts), whether the
     * table allows NULL in it, its server-side conversion ({@code readSql}, null to read the column itself) and the
     * value policy in force for it.
     */
    public record Column(String name, ColumnType type, int jdbcType, int size, boolean nullable, String readSql,
                         ValuePolicy policy) {
        public Column {
            policy = policy == null ? ValuePolicy.REFUSE : policy;
        }

        /** A column read as itself, values ClickHouse cannot hold refused. */
        public Column(String name, ColumnType type, int jdbcType, int size, boolean nullable) {
            this(name, type, jdbcType, size, nullable, null, ValuePolicy.REFUSE);
        }

        /** The same column under another spelling of its name. */
        Column named(String other) {
            return new Column(other, type, jdbcType, size, nullable, readSql, policy);
        }

        /** The same column read as {@code other} (the source table's type where the change table's differs). */
        Column typed(ColumnType other) {
            return new Column(name, other, jdbcType, size, nullable, readSql, policy);
        }

        /** The same column with the source table's nullability. */
        Column nullable(boolean sourceNullable) {
            return new Column(name, type, jdbcType, size, sourceNullable, readSql, policy);
        }

        /**
         * The select-list item reading this column: its server-side conversion aliased to its name (a hierarchyid's
         * path, a spatial column's WKB and SRID: {@link io.dpone.source.ColumnReads}), or {@code qualifier.[name]}.
         */
        String selectItem(String qualifier) {
            String id = io.dpone.source.SqlServerDialect.quote(name);
            return readSql != null ? readSql + " AS " + id : (qualifier == null ? "" : qualifier + ".") + id;
        }

        /** The column as the CDC batch declares it (its SQL Server type name, nullability, family and policy). */
        public SourceColumn sourceColumn() {
            return new SourceColumn(name, SqlServerTypeNames.name(type), nullable, type, null, policy);
        }

        /** The column's value in the current row of {@code rs} at {@code index}; out-of-range values block. */
        public Object read(ResultSet rs, int index) throws SQLException {
            return read(rs, index, null, -1);
        }

        /**
         * The column's value in the current row of {@code rs} at {@code index}; a value ClickHouse cannot hold takes
         * the column's policy, counted in {@code tally} at {@code position}, or blocks naming the column (never the
         * value) and the policy that would move it.
         */
        public Object read(ResultSet rs, int index, PolicyTally tally, int position) throws SQLException {
            try {
                return type.read(rs, index);
            } catch (ValueOutOfRangeException e) {
                try {
                    if (tally != null) {
                        return tally.apply(position, sourceColumn(), e);
                    }
                    throw e;
                } catch (ValueOutOfRangeException refused) {
                    throw new DponeException(BlockerCode.SOURCE_VALUE_OUT_OF_RANGE, "source.columns." + name,
                        refused.getMessage() + (io.dpone.source.ColumnReads.rangeLimited(type)
                            && policy == ValuePolicy.REFUSE ? " (declare --value-policy " + name + "=clamp"
                            + (nullable ? " or =null" : "") + ", or a serve stream's value_policy, to move such "
                            + "values, counted in the tick report)" : ""));
                }
            }
        }

        /** The SQL Server type a string key parameter is cast to, so it compares in the column's collation. */
        String stringCast() {
            String n = size <= 0 || size > 4000 ? "MAX" : Integer.toString(size);
            return switch (jdbcType) {
                case Types.CHAR, Types.VARCHAR -> "VARCHAR(" + (size <= 0 || size > 8000 ? "MAX" : size) + ")";
                case Types.NCHAR, Types.NVARCHAR -> "NVARCHAR(" + n + ")";
                default -> null;
            };
        }
    }

    public PayloadColumns {
        columns = List.copyOf(columns);
        primaryKey = List.copyOf(primaryKey);
    }

    /** The columns of {@code schema.table}; empty columns means the table does not exist (or is not visible). */
    public static PayloadColumns describe(DatabaseMetaData md, String schema, String table) throws SQLException {
        return describe(md, schema, table, null);
    }

    /**
     * As {@link #describe(DatabaseMetaData, String, String)}; the conversions of converted columns reference the table
     * as {@code qualifier} ({@code [t]} in a join), unqualified when {@code null}.
     */
    public static PayloadColumns describe(DatabaseMetaData md, String schema, String table, String qualifier)
        throws SQLException {
        return describe(md, schema, table, qualifier, ValuePolicies.NONE, List.of());
    }

    /**
     * As {@link #describe(DatabaseMetaData, String, String, String)}, each column under the policy {@code policies}
     * put in force for it ({@link io.dpone.source.ColumnReads#policyInForce}: never a clamp or null on a
     * {@code keys} column).
     */
    public static PayloadColumns describe(DatabaseMetaData md, String schema, String table, String qualifier,
                                          ValuePolicies policies, List<String> keys) throws SQLException {
        List<Column> columns = new ArrayList<>();
        List<Blocker> blockers = new ArrayList<>();
        eachColumn(md, schema, table, rs -> {
            String name = rs.getString("COLUMN_NAME");
            int position = columns.size() + blockers.size();
            if (!IDENTIFIER.matcher(name).matches()) {
                blockers.add(CdcBlockers.blocker(CdcBlockers.INVALID_ARGUMENT, "source.columns[" + position + "]",
                    "a captured column name is not an identifier (^[A-Za-z_][A-Za-z0-9_]*$)"));
                return;
            }
            int jdbcType = rs.getInt("DATA_TYPE");
            int size = rs.getInt("COLUMN_SIZE");
            String typeName = rs.getString("TYPE_NAME");
            var described = new io.dpone.source.ColumnReads.Described(name, jdbcType, typeName, size,
                rs.getInt("DECIMAL_DIGITS"), rs.getInt("NULLABLE") != DatabaseMetaData.columnNoNulls, false);
            boolean key = keys.stream().anyMatch(k -> k.equalsIgnoreCase(name));
            var read = io.dpone.source.ColumnReads.read(described,
                io.dpone.source.ColumnReads.policyInForce(policies, described, key),
                schema + "." + table + "." + name, "value_policy.columns." + name, qualifier);
            if (read.refusal() != null) {
                blockers.add(read.refusal());
                return;
            }
            for (SourceColumn c : read.columns()) {
                columns.add(new Column(c.name(), c.type(), jdbcType, size, c.nullable(), c.readSql(), c.policy()));
            }
        });
        if (!blockers.isEmpty()) {
            throw new DponeException(blockers);
        }
        return new PayloadColumns(columns, io.dpone.source.PrimaryKeys.of(md, schema, table));
    }

    /** What {@link #eachColumn} does with one row of {@link DatabaseMetaData#getColumns}. */
    @FunctionalInterface
    public interface ColumnRow {
        void accept(ResultSet row) throws SQLException;
    }

    /**
     * Each of {@code schema.table}'s own columns as a row of {@link DatabaseMetaData#getColumns}, in table order, CDC
     * metadata columns ({@code __$...}) left out. getColumns takes LIKE patterns, where {@code _} also matches other
     * tables' names, so rows of another table are skipped.
     */
    public static void eachColumn(DatabaseMetaData md, String schema, String table, ColumnRow row)
        throws SQLException {
        try (ResultSet rs = md.getColumns(null, schema, table, null)) {
            while (rs.next()) {
                if (table.equalsIgnoreCase(rs.getString("TABLE_NAME"))
                    && schema.equalsIgnoreCase(rs.getString("TABLE_SCHEM"))
                    && !rs.getString("COLUMN_NAME").startsWith("__$")) {
                    row.accept(rs);
                }
            }
        }
    }

    /**
     * Refuses unique keys read through a conversion (a hierarchyid's path, a spatial column): a stream resumes by
     * comparing key values on the server, which a converted value cannot do exactly.
     */
    static void refuseConvertedKeys(List<Column> keys) {
        for (Column c : keys) {
            if (c.readSql() != null) {
                throw CdcBlockers.failure(CdcBlockers.INVALID_ARGUMENT, "--unique-key", "unique-key column "
                    + c.name() + " is read through a conversion (hierarchyid, geography, geometry): it cannot key a"
                    + " stream; key it by another unique column");
            }
        }
    }

    /**
     * Refuses declared policies that name no column of {@code table} ({@code where}, e.g. {@code dbo.orders}) or
     * clamp or null a unique-key column (a changed key could merge two rows), before anything is read.
     */
    void refuseStrayPolicies(ValuePolicies policies, List<String> keys, String where) {
        List<Blocker> blockers = new ArrayList<>();
        for (var e : policies.columns().entrySet()) {
            String path = "value_policy.columns." + e.getKey();
            boolean key = keys.stream().anyMatch(k -> k.equalsIgnoreCase(e.getKey()));
            if (column(e.getKey()).isEmpty()) {
                blockers.add(CdcBlockers.blocker(CdcBlockers.INVALID_ARGUMENT, path, "column '" + e.getKey()
                    + "' is not a captured column of " + where));
            } else if (key && (e.getValue() == ValuePolicy.CLAMP || e.getValue() == ValuePolicy.NULL)) {
                blockers.add(CdcBlockers.blocker(CdcBlockers.INVALID_ARGUMENT, path, e.getValue().text()
                    + " cannot apply to unique-key column " + e.getKey() + " of " + where
                    + ": a changed key could merge two rows"));
            }
        }
        if (!blockers.isEmpty()) {
            throw new DponeException(blockers);
        }
    }

    /** The column named {@code name} (case-insensitive, as SQL Server identifiers usually are). */
    public java.util.Optional<Column> column(String name) {
        return columns.stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst();
    }
}
