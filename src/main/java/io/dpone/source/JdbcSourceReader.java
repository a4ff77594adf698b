package io.dpone.source;

import io.dpone.connect.ConnectionSpec;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.manifest.TableRef;
import io.dpone.manifest.ValuePolicies;
import io.dpone.manifest.ValuePolicy;
import io.dpone.source.types.ColumnType;
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

    /** The database's catalogue of user tables ({@code dpone discover}): read without touching a row. */
    public SourceCatalog catalog() {
        return new SourceCatalog(connection);
    }

    @Override
    public SourceTable describe(TableRef table, List<String> columns) {
        return describe(table, columns, ValuePolicies.NONE);
    }

    @Override
    public SourceTable describe(TableRef table, List<String> columns, ValuePolicies policies) {
        Inspection inspection = inspect(table, columns, policies);
        if (!inspection.blockers().isEmpty()) {
            throw new DponeException(inspection.blockers());
        }
        return inspection.table();
    }

    /**
     * What one read of the catalogue says about {@code table}: every column in table order with how it would be read
     * under {@code policies} (only the columns in {@code columns}, all when empty, are mapped; the others are listed
     * as not selected), and either the described table or every blocker at once (refused columns, policies that
     * cannot apply, unknown or colliding names). {@link #describe} throws the blockers; {@code dpone check --connect}
     * lists both.
     */
    public record Inspection(List<ColumnMapping> columns, SourceTable table, List<Blocker> blockers) {
    }

    /** One read of {@code table}'s catalogue: see {@link Inspection}; a missing table throws. */
    public Inspection inspect(TableRef table, List<String> columns, ValuePolicies policies) {
        List<String> primaryKey;
        List<ColumnMapping> mappings = new ArrayList<>();
        try {
            DatabaseMetaData md = connection.getMetaData();
            primaryKey = PrimaryKeys.of(md, table.schema(), table.name());
            try (ResultSet rs = md.getColumns(null, table.schema(), table.name(), null)) {
                boolean udtColumn = hasColumn(rs, "SS_UDT_ASSEMBLY_TYPE_NAME");
                while (rs.next()) {
                    // getColumns takes LIKE patterns: '_' in a table name also matches other tables
                    if (!table.name().equalsIgnoreCase(rs.getString("TABLE_NAME"))
                        || !table.schema().equalsIgnoreCase(rs.getString("TABLE_SCHEM"))) {
                        continue;
                    }
                    String name = rs.getString("COLUMN_NAME");
                    var described = new ColumnReads.Described(name, rs.getInt("DATA_TYPE"), rs.getString("TYPE_NAME"),
                        rs.getInt("COLUMN_SIZE"), rs.getInt("DECIMAL_DIGITS"),
                        rs.getInt("NULLABLE") != DatabaseMetaData.columnNoNulls,
                        udtColumn && rs.getString("SS_UDT_ASSEMBLY_TYPE_NAME") != null);
                    boolean selected = columns.isEmpty() || columns.stream().anyMatch(c -> c.equalsIgnoreCase(name));
                    boolean key = primaryKey.stream().anyMatch(k -> k.equalsIgnoreCase(name));
                    ColumnReads.Result r = selected ? ColumnReads.read(described, ColumnReads.policyInForce(policies, described, key),
                        table + "." + name, "source.value_policy.columns." + name)
                        : new ColumnReads.Result(List.of(), null);
                    mappings.add(new ColumnMapping(name, described.typeName(), described.nullable(), key, selected,
                        r.columns() == null ? List.of() : r.columns(), r.refusal()));
                }
            }
        } catch (SQLException e) {
            throw new DponeException(BlockerCode.SOURCE_READ_FAILED, "source.table",
                "cannot read source metadata (SQLState " + e.getSQLState() + ")");
        }
        if (mappings.isEmpty()) {
            throw new DponeException(BlockerCode.SOURCE_TABLE_MISSING, "source.table",
                "source table " + table + " does not exist or has no readable columns");
        }
        List<Blocker> blockers = new ArrayList<>();
        Map<String, ColumnMapping> found = new LinkedHashMap<>();
        for (ColumnMapping m : mappings) {
            if (m.refusal() != null) {
                blockers.add(m.refusal());
            }
            found.put(m.name().toLowerCase(Locale.ROOT), m);
        }
        policyTargets(table, policies, found, blockers);
        List<SourceColumn> selected = select(table, columns, found, blockers);
        derivedNames(table, selected, found, blockers);
        return new Inspection(mappings, blockers.isEmpty() ? new SourceTable(table, selected, primaryKey) : null,
            List.copyOf(blockers));
    }

    /** A declared policy names a column of the table, and never a selected primary-key column's clamp/null. */
    private static void policyTargets(TableRef table, ValuePolicies policies, Map<String, ColumnMapping> found,
                                      List<Blocker> blockers) {
        for (var e : policies.columns().entrySet()) {
            String path = "source.value_policy.columns." + e.getKey();
            ColumnMapping m = found.get(e.getKey().toLowerCase(Locale.ROOT));
            if (m == null) {
                blockers.add(Blocker.of(BlockerCode.MANIFEST_INVALID_VALUE, path,
                    "column '" + e.getKey() + "' does not exist in " + table));
            } else if (m.selected() && m.primaryKey()
                && (e.getValue() == ValuePolicy.CLAMP || e.getValue() == ValuePolicy.NULL)) {
                blockers.add(Blocker.of(BlockerCode.MANIFEST_INVALID_VALUE, path, e.getValue().text()
                    + " cannot apply to " + table + "." + e.getKey() + ", a primary-key column: a changed key could"
                    + " merge two rows"));
            }
        }
    }

    /** A column a conversion adds ({@code <c>__srid}, {@code <c>__type}) must not collide with a column of the table. */
    private static void derivedNames(TableRef table, List<SourceColumn> selected, Map<String, ColumnMapping> found,
                                     List<Blocker> blockers) {
        for (SourceColumn c : selected) {
            ColumnMapping own = found.get(c.name().toLowerCase(Locale.ROOT));
            if (own != null && !own.reads().contains(c)) { // c was added by another column's conversion
                blockers.add(Blocker.of(BlockerCode.SOURCE_TYPE_UNSUPPORTED, "source.columns", "column " + c.name()
                    + ", which dpone adds for a converted column, already exists in " + table
                    + ": rename one of them in a view"));
            }
        }
    }

    private static boolean hasColumn(ResultSet rs, String label) {
        try {
            rs.findColumn(label);
            return true;
        } catch (SQLException e) {
            return false; // H2 and older drivers: no CLR type column, so no CLR types to tell apart
        }
    }

    private static List<SourceColumn> select(TableRef table, List<String> columns, Map<String, ColumnMapping> found,
                                             List<Blocker> blockers) {
        List<SourceColumn> selected = new ArrayList<>();
        if (columns.isEmpty()) {
            found.values().forEach(m -> selected.addAll(m.reads()));
            return selected;
        }
        for (int i = 0; i < columns.size(); i++) {
            ColumnMapping m = found.get(columns.get(i).toLowerCase(Locale.ROOT));
            if (m == null) {
                blockers.add(Blocker.of(BlockerCode.SOURCE_TABLE_MISSING, "source.columns[" + i + "]",
                    "column '" + columns.get(i) + "' does not exist in " + table));
            } else {
                selected.addAll(m.reads());
            }
        }
        return selected;
    }

    @Override
    public RowCursor open(SourceTable table, int fetchSize, long rowLimit) {
        List<String> names = table.columns().stream().map(SourceColumn::name).toList();
        String sql = SqlServerDialect.select(table.ref().schema(), table.ref().name(), table.columns(), rowLimit,
            table.primaryKey());
        try {
            Statement st = connection.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
            st.setFetchSize(fetchSize);
            ResultSet rs = st.executeQuery(sql);
            return new JdbcRowCursor(st, rs, table);
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

    /** Sample keys per reader asked for: the cut nearest an equal share is then within 1/64 of a share. */
    static final int SAMPLES_PER_READER = 64;

    @Override
    public Optional<KeyBoundaries> keyBoundaries(SourceTable table, List<SourceColumn> key, int n) {
        boolean h2 = h2();
        String name = SqlServerDialect.quote(table.ref().schema()) + "." + SqlServerDialect.quote(table.ref().name());
        if (!h2) {
            if (!KeyStatistics.clustered(connection, name).orElse(true)) {
                long rows = estimatedRows(table).orElse(0);
                return Optional.of(new KeyBoundaries(List.of(), new long[] {rows}, rows,
                    "the primary key, which is not the clustered index: a range would be a scan or a lookup per row"));
            }
            Optional<KeyBoundaries> fromStatistics = KeyStatistics.read(connection, name, n);
            if (fromStatistics.isPresent()) {
                return fromStatistics;
            }
        }
        List<List<Object>> keys = new ArrayList<>();
        List<Long> before = new ArrayList<>();
        String source;
        long rows;
        try {
            rows = count(table, !h2);
            if (rows == 0) {
                return Optional.empty();
            }
            if (h2) {
                source = "the key at each cut's row position";
                String sql = SqlServerDialect.keyAt(table.ref().schema(), table.ref().name(), key);
                for (int i = 1; i < n; i++) {
                    long position = rows * i / n;
                    if (position > 0 && (before.isEmpty() || position > before.get(before.size() - 1))) {
                        try (PreparedStatement st = connection.prepareStatement(sql)) {
                            st.setLong(1, position);
                            try (ResultSet rs = st.executeQuery()) {
                                if (rs.next()) {
                                    keys.add(row(rs, key.size()));
                                    before.add(position);
                                }
                            }
                        }
                    }
                }
            } else {
                long step = Math.max(1, rows / ((long) n * SAMPLES_PER_READER));
                source = step == 1 ? "a key sample of every key" : "a key sample of one key in " + step;
                String sql = SqlServerDialect.keySample(table.ref().schema(), table.ref().name(), key);
                try (PreparedStatement st = connection.prepareStatement(sql)) {
                    st.setLong(1, step);
                    try (ResultSet rs = st.executeQuery()) {
                        while (rs.next()) {
                            keys.add(row(rs, key.size()));
                            before.add(rs.getLong(key.size() + 1) - 1);
                        }
                    }
                }
            }
        } catch (SQLException e) {
            throw new DponeException(BlockerCode.SOURCE_READ_FAILED, "source.table",
                "cannot sample the key of " + table.ref() + " (SQLState " + e.getSQLState() + ")");
        }
        return Optional.of(KeyBoundaries.choose(keys, before.stream().mapToLong(Long::longValue).toArray(), rows, n,
            source));
    }

    private static List<Object> row(ResultSet rs, int columns) throws SQLException {
        List<Object> k = new ArrayList<>(columns);
        for (int i = 1; i <= columns; i++) {
            k.add(rs.getObject(i));
        }
        return k;
    }

    private long count(SourceTable table, boolean countBig) throws SQLException {
        try (Statement st = connection.createStatement();
             ResultSet rs = st.executeQuery(SqlServerDialect.rowCount(table.ref().schema(), table.ref().name(),
                 countBig))) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private boolean h2() {
        try {
            return connection.getMetaData().getDatabaseProductName().startsWith("H2");
        } catch (SQLException e) {
            return false;
        }
    }

    @Override
    public RowCursor open(SourceTable table, int fetchSize, KeyRange range) {
        List<SourceColumn> key = range.columns().stream().map(k -> table.columns().stream()
            .filter(c -> c.name().equalsIgnoreCase(k)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("key column " + k + " is not selected"))).toList();
        List<Object> params = new ArrayList<>();
        String sql = SqlServerDialect.selectRange(table.ref().schema(), table.ref().name(), table.columns(), key, range,
            params);
        try {
            PreparedStatement st = connection.prepareStatement(sql, ResultSet.TYPE_FORWARD_ONLY,
                ResultSet.CONCUR_READ_ONLY);
            try {
                for (int i = 0; i < params.size(); i++) {
                    st.setObject(i + 1, params.get(i));
                }
                st.setFetchSize(fetchSize);
                ResultSet rs = st.executeQuery();
                return new JdbcRowCursor(st, rs, table);
            } catch (SQLException e) {
                st.close();
                throw e;
            }
        } catch (SQLException e) {
            throw readFailed("cannot read source table " + table.ref() + " (SQLState " + e.getSQLState() + ")", e,
                lost(connection));
        }
    }

    /**
     * Whether {@code c} is closed after a failure: a driver closes its connection when the wire broke (mssql-jdbc
     * terminates it on a reset, or on a stream that ended inside a packet, "SQL Server returned an incomplete
     * response", whose SQLState may be null), never for a statement the server refused.
     */
    static boolean lost(Connection c) {
        try {
            return c.isClosed();
        } catch (SQLException e) {
            return true;
        }
    }

    static DponeException readFailed(String message, SQLException e, boolean connectionLost) {
        return connectionLost && !io.dpone.retry.TransientFaults.refused(e)
            ? new io.dpone.retry.TransientFailure(BlockerCode.SOURCE_READ_FAILED, "source.table", message)
            : readFailed(message, e);
    }

    /** {@code source.read_failed}; transient ({@link io.dpone.retry.TransientFailure}) when the connection broke. */
    static DponeException readFailed(String message, SQLException e) {
        return io.dpone.retry.TransientFaults.isTransientSql(e)
            ? new io.dpone.retry.TransientFailure(BlockerCode.SOURCE_READ_FAILED, "source.table", message)
            : new DponeException(BlockerCode.SOURCE_READ_FAILED, "source.table", message);
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
        private final List<SourceColumn> columns;
        private final PolicyTally tally;

        JdbcRowCursor(Statement statement, ResultSet rs, SourceTable table) {
            this.statement = statement;
            this.rs = rs;
            this.columns = table.columns();
            this.types = columns.stream().map(SourceColumn::type).toArray(ColumnType[]::new);
            this.tally = table.tally();
        }

        @Override
        public boolean next(Object[] row) {
            int i = 0;
            try {
                if (!rs.next()) {
                    return false;
                }
                for (; i < types.length; i++) {
                    try {
                        row[i] = types[i].read(rs, i + 1);
                    } catch (ValueOutOfRangeException refused) {
                        row[i] = tally.apply(i, columns.get(i), refused);
                    }
                }
                return true;
            } catch (ValueOutOfRangeException e) {
                throw new DponeException(BlockerCode.SOURCE_VALUE_OUT_OF_RANGE, "source.columns." + columns.get(i).name(),
                    e.getMessage() + refusalHint(columns.get(i)));
            } catch (SQLException e) {
                Connection c;
                try {
                    c = statement.getConnection();
                } catch (SQLException closed) {
                    c = null;
                }
                throw readFailed("source read failed (SQLState " + e.getSQLState() + ")", e, c == null || lost(c));
            }
        }

        /** The way out of a refused value: a declared policy, where one could apply. */
        private static String refusalHint(SourceColumn c) {
            return ColumnReads.rangeLimited(c.type()) && c.policy() == ValuePolicy.REFUSE
                ? " (declare source.value_policy.columns." + c.name() + ": clamp" + (c.nullable() ? " or null" : "")
                    + " to move such values, counted in the run report)" : "";
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
