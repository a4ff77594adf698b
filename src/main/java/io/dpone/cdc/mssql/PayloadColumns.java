package io.dpone.cdc.mssql;

import io.dpone.cdc.CdcBlockers;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.source.SourceColumn;
import io.dpone.source.types.ColumnType;
import io.dpone.source.types.SqlServerTypeNames;
import io.dpone.source.types.TypeMapper;
import io.dpone.source.types.ValueOutOfRangeException;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
     * One column: its name, type family, the JDBC type code and size (for typed parameter casts) and whether the
     * table allows NULL in it.
     */
    public record Column(String name, ColumnType type, int jdbcType, int size, boolean nullable) {
        /** The same column under another spelling of its name. */
        Column named(String other) {
            return new Column(other, type, jdbcType, size, nullable);
        }

        /** The column as the CDC batch declares it (its SQL Server type name, nullability and family). */
        public SourceColumn sourceColumn() {
            return new SourceColumn(name, SqlServerTypeNames.name(type), nullable, type);
        }

        /** The column's value in the current row of {@code rs} at {@code index}; out-of-range values block. */
        public Object read(ResultSet rs, int index) throws SQLException {
            try {
                return type.read(rs, index);
            } catch (ValueOutOfRangeException e) {
                throw new DponeException(BlockerCode.SOURCE_VALUE_OUT_OF_RANGE, "source.columns." + name,
                    e.getMessage());
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
        List<Column> columns = new ArrayList<>();
        List<Blocker> blockers = new ArrayList<>();
        try (ResultSet rs = md.getColumns(null, schema, table, null)) {
            while (rs.next()) {
                // getColumns takes LIKE patterns: '_' also matches other tables
                if (!table.equalsIgnoreCase(rs.getString("TABLE_NAME"))
                    || !schema.equalsIgnoreCase(rs.getString("TABLE_SCHEM"))) {
                    continue;
                }
                String name = rs.getString("COLUMN_NAME");
                if (name.startsWith("__$")) {
                    continue;
                }
                int position = columns.size() + blockers.size();
                if (!IDENTIFIER.matcher(name).matches()) {
                    blockers.add(CdcBlockers.blocker(CdcBlockers.INVALID_ARGUMENT, "source.columns[" + position + "]",
                        "a captured column name is not an identifier (^[A-Za-z_][A-Za-z0-9_]*$)"));
                    continue;
                }
                int jdbcType = rs.getInt("DATA_TYPE");
                int size = rs.getInt("COLUMN_SIZE");
                String typeName = rs.getString("TYPE_NAME");
                var type = TypeMapper.map(jdbcType, typeName, size, rs.getInt("DECIMAL_DIGITS"));
                if (type.isEmpty()) {
                    blockers.add(Blocker.of(BlockerCode.SOURCE_TYPE_UNSUPPORTED, schema + "." + table + "." + name,
                        "source type " + typeName + " has no exact ClickHouse mapping"));
                    continue;
                }
                columns.add(new Column(name, type.get(), jdbcType, size,
                    rs.getInt("NULLABLE") != DatabaseMetaData.columnNoNulls));
            }
        }
        if (!blockers.isEmpty()) {
            throw new DponeException(blockers);
        }
        Map<Integer, String> keys = new TreeMap<>();
        try (ResultSet rs = md.getPrimaryKeys(null, schema, table)) {
            while (rs.next()) {
                if (table.equalsIgnoreCase(rs.getString("TABLE_NAME"))) {
                    keys.put(rs.getInt("KEY_SEQ"), rs.getString("COLUMN_NAME"));
                }
            }
        }
        return new PayloadColumns(columns, new ArrayList<>(keys.values()));
    }

    /** The column named {@code name} (case-insensitive, as SQL Server identifiers usually are). */
    public java.util.Optional<Column> column(String name) {
        return columns.stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst();
    }
}
