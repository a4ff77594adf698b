package io.dpone.source;

import io.dpone.connect.ConnectionSpec;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.manifest.TableRef;
import io.dpone.source.types.ColumnType;
import io.dpone.source.types.TypeMapper;
import io.dpone.source.types.ValueOutOfRangeException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * SQL Server source over JDBC: mssql-jdbc for {@code jdbc:sqlserver:} URLs (adaptive response buffering, direct
 * select method, so rows stream without a server cursor), H2 in MSSQLServer mode for {@code jdbc:h2:} URLs.
 */
public final class JdbcSourceReader implements SourceReader {
    private final Connection connection;

    private JdbcSourceReader(Connection connection) {
        this.connection = connection;
    }

    public static JdbcSourceReader open(ConnectionSpec spec) {
        return new JdbcSourceReader(SourceConnections.open(spec, "dpone"));
    }

    @Override
    public SourceTable describe(TableRef table, List<String> columns) {
        try {
            DatabaseMetaData md = connection.getMetaData();
            Map<String, SourceColumn> found = new LinkedHashMap<>();
            List<Blocker> blockers = new ArrayList<>();
            try (ResultSet rs = md.getColumns(null, table.schema(), table.name(), null)) {
                while (rs.next()) {
                    // getColumns takes LIKE patterns: '_' in a table name also matches other tables
                    if (!table.name().equalsIgnoreCase(rs.getString("TABLE_NAME"))
                        || !table.schema().equalsIgnoreCase(rs.getString("TABLE_SCHEM"))) {
                        continue;
                    }
                    String name = rs.getString("COLUMN_NAME");
                    String typeName = rs.getString("TYPE_NAME");
                    var type = TypeMapper.map(rs.getInt("DATA_TYPE"), typeName, rs.getInt("COLUMN_SIZE"),
                        rs.getInt("DECIMAL_DIGITS"));
                    boolean nullable = rs.getInt("NULLABLE") != DatabaseMetaData.columnNoNulls;
                    if (type.isEmpty()) {
                        blockers.add(Blocker.of(BlockerCode.SOURCE_TYPE_UNSUPPORTED, table + "." + name,
                            "source type " + typeName + " has no exact ClickHouse mapping"));
                        continue;
                    }
                    found.put(name.toLowerCase(Locale.ROOT), new SourceColumn(name, typeName, nullable, type.get()));
                }
            }
            if (found.isEmpty() && blockers.isEmpty()) {
                throw new DponeException(BlockerCode.SOURCE_TABLE_MISSING, "source.table",
                    "source table " + table + " does not exist or has no readable columns");
            }
            List<SourceColumn> selected = select(table, columns, found, blockers);
            if (!blockers.isEmpty()) {
                throw new DponeException(blockers);
            }
            return new SourceTable(table, selected, primaryKey(md, table));
        } catch (SQLException e) {
            throw new DponeException(BlockerCode.SOURCE_READ_FAILED, "source.table",
                "cannot read source metadata (SQLState " + e.getSQLState() + ")");
        }
    }

    private static List<SourceColumn> select(TableRef table, List<String> columns, Map<String, SourceColumn> found,
                                             List<Blocker> blockers) {
        if (columns.isEmpty()) {
            return new ArrayList<>(found.values());
        }
        List<SourceColumn> selected = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            SourceColumn c = found.get(columns.get(i).toLowerCase(Locale.ROOT));
            if (c == null) {
                blockers.add(Blocker.of(BlockerCode.SOURCE_TABLE_MISSING, "source.columns[" + i + "]",
                    "column '" + columns.get(i) + "' does not exist in " + table));
            } else {
                selected.add(c);
            }
        }
        return selected;
    }

    private static List<String> primaryKey(DatabaseMetaData md, TableRef table) throws SQLException {
        Map<Integer, String> keys = new TreeMap<>();
        try (ResultSet rs = md.getPrimaryKeys(null, table.schema(), table.name())) {
            while (rs.next()) {
                if (table.name().equalsIgnoreCase(rs.getString("TABLE_NAME"))) {
                    keys.put(rs.getInt("KEY_SEQ"), rs.getString("COLUMN_NAME"));
                }
            }
        }
        return new ArrayList<>(keys.values());
    }

    @Override
    public RowCursor open(SourceTable table, int fetchSize, long rowLimit) {
        List<String> names = table.columns().stream().map(SourceColumn::name).toList();
        String sql = SqlServerDialect.select(table.ref().schema(), table.ref().name(), names, rowLimit,
            table.primaryKey());
        try {
            Statement st = connection.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
            st.setFetchSize(fetchSize);
            ResultSet rs = st.executeQuery(sql);
            return new JdbcRowCursor(st, rs, table.columns().stream().map(SourceColumn::type).toList(), names);
        } catch (SQLException e) {
            throw new DponeException(BlockerCode.SOURCE_READ_FAILED, "source.table",
                "cannot read source table " + table.ref() + " (SQLState " + e.getSQLState() + ")");
        }
    }

    @Override
    public java.util.OptionalLong estimatedRows(SourceTable table) {
        try {
            boolean h2 = connection.getMetaData().getDatabaseProductName().startsWith("H2");
            String sql = h2 ? SqlServerDialect.h2EstimatedRows() : SqlServerDialect.estimatedRows();
            try (PreparedStatement st = connection.prepareStatement(sql)) {
                st.setString(1, table.ref().schema());
                st.setString(2, table.ref().name());
                try (ResultSet rs = st.executeQuery()) {
                    if (rs.next()) {
                        long n = rs.getLong(1);
                        return rs.wasNull() || n < 0 ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(n);
                    }
                }
            }
        } catch (SQLException e) {
            // no VIEW DATABASE STATE, or another catalogue: the progress shows no estimate
        }
        return java.util.OptionalLong.empty();
    }

    @Override
    public Optional<long[]> keyBounds(SourceTable table, String column) {
        String sql = SqlServerDialect.keyBounds(table.ref().schema(), table.ref().name(), column);
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            if (!rs.next()) {
                return Optional.empty();
            }
            long min = rs.getLong(1);
            if (rs.wasNull()) {
                return Optional.empty(); // no rows
            }
            return Optional.of(new long[] {min, rs.getLong(2)});
        } catch (SQLException e) {
            throw new DponeException(BlockerCode.SOURCE_READ_FAILED, "source.table",
                "cannot read the key bounds of " + table.ref() + " (SQLState " + e.getSQLState() + ")");
        }
    }

    @Override
    public RowCursor open(SourceTable table, int fetchSize, KeyRange range) {
        List<String> names = table.columns().stream().map(SourceColumn::name).toList();
        String sql = SqlServerDialect.selectRange(table.ref().schema(), table.ref().name(), names, range);
        try {
            PreparedStatement st = connection.prepareStatement(sql, ResultSet.TYPE_FORWARD_ONLY,
                ResultSet.CONCUR_READ_ONLY);
            return openRange(st, range, fetchSize, table, names);
        } catch (SQLException e) {
            throw new DponeException(BlockerCode.SOURCE_READ_FAILED, "source.table",
                "cannot read source table " + table.ref() + " (SQLState " + e.getSQLState() + ")");
        }
    }

    private static RowCursor openRange(PreparedStatement st, KeyRange range, int fetchSize, SourceTable table,
                                       List<String> names) throws SQLException {
        try {
            int p = 1;
            if (range.fromInclusive() != null) {
                st.setLong(p++, range.fromInclusive());
            }
            if (range.toExclusive() != null) {
                st.setLong(p, range.toExclusive());
            }
            st.setFetchSize(fetchSize);
            ResultSet rs = st.executeQuery();
            return new JdbcRowCursor(st, rs, table.columns().stream().map(SourceColumn::type).toList(), names);
        } catch (SQLException e) {
            st.close();
            throw e;
        }
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // closing a read-only connection has nothing to lose
        }
    }

    private static final class JdbcRowCursor implements RowCursor {
        private final Statement statement;
        private final ResultSet rs;
        private final ColumnType[] types;
        private final List<String> names;

        JdbcRowCursor(Statement statement, ResultSet rs, List<ColumnType> types, List<String> names) {
            this.statement = statement;
            this.rs = rs;
            this.types = types.toArray(new ColumnType[0]);
            this.names = names;
        }

        @Override
        public boolean next(Object[] row) {
            int i = 0;
            try {
                if (!rs.next()) {
                    return false;
                }
                for (; i < types.length; i++) {
                    row[i] = types[i].read(rs, i + 1);
                }
                return true;
            } catch (ValueOutOfRangeException e) {
                throw new DponeException(BlockerCode.SOURCE_VALUE_OUT_OF_RANGE, "source.columns." + names.get(i),
                    e.getMessage());
            } catch (SQLException e) {
                throw new DponeException(BlockerCode.SOURCE_READ_FAILED, "source.table",
                    "source read failed (SQLState " + e.getSQLState() + ")");
            }
        }

        @Override
        public void close() {
            try {
                statement.close();
            } catch (SQLException ignored) {
                // the statement is read-only; nothing to roll back
            }
        }
    }
}
