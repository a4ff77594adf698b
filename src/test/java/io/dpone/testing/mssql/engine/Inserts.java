package io.dpone.testing.mssql.engine;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What SQL Server checks and fills in an {@code INSERT} before H2 sees it: a {@code timestamp} (rowversion) column
 * given a value other than {@code DEFAULT}/{@code NULL} is error 273 (named in the column list or not; the engine
 * fills it); without a column list the values go to the stored columns only (computed
 * ones skipped, as SQL Server skips them); a {@code sql_variant} value's base type goes to the column's invisible
 * companion ({@link Variants}), from INSERT .. VALUES and UPDATE .. SET alike; an UPDATE setting a timestamp column
 * is error 272. A computed column named in the list is refused by H2 and reported as error 271
 * ({@link SqlErrors}).
 */
final class Inserts {
    private static final Pattern INSERT = Pattern.compile("(?is)\\s*INSERT\\s+(?:INTO\\s+)?(" + SqlText.NAME
        + ")\\s*(\\([^()]*\\))?\\s*(VALUES\\b\\s*(.*)|.*)");
    private static final Pattern UPDATE = Pattern.compile("(?is)\\s*UPDATE\\s+(?:TOP\\s*\\([^)]*\\)\\s*)?("
        + SqlText.NAME + ")\\s+SET\\s+(.*)");

    private static final Pattern DEFAULT_VALUES = Pattern.compile("(?is)DEFAULT\\s+VALUES\\b.*");
    private static final Pattern SET_END = Pattern.compile("(?i)\\b(WHERE|FROM|OUTPUT)\\b");

    private Inserts() {
    }

    /** The statement to run: unchanged unless it is an INSERT into a table that needs one of the rules above. */
    static String prepare(EngineSession s, String sql, Map<String, Object> values) throws SQLException, SqlServerError {
        String masked = SqlText.mask(sql);
        Matcher u = UPDATE.matcher(masked);
        if (u.matches()) {
            return update(s, sql, u, values);
        }
        Matcher m = INSERT.matcher(masked);
        if (!m.matches() || DEFAULT_VALUES.matcher(m.group(3)).matches()) {
            return sql; // DEFAULT VALUES: every column takes its default, the engine fills rowversion
        }
        Names.Table table;
        try {
            table = Names.table(sql.substring(m.start(1), m.end(1)));
        } catch (IllegalArgumentException e) {
            return sql;
        }
        Map<String, TwinCatalog.Column> declared = s.declaredColumns(table.schema(), table.name());
        if (declared.isEmpty()) {
            return sql;
        }
        List<String> columns = new ArrayList<>();
        if (m.group(2) != null) {
            for (String c : TableDdl.split(sql.substring(m.start(2) + 1, m.end(2) - 1))) {
                columns.add(Names.parts(c).get(0));
            }
        } else {
            for (TwinCatalog.Column c : declared.values()) {
                if (c.computed() == null) {
                    columns.add(c.name());
                }
            }
        }
        List<Integer> variants = new ArrayList<>();
        List<Integer> stamps = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            TwinCatalog.Column col = declared.get(columns.get(i).toLowerCase(Locale.ROOT));
            if (col != null && col.type().kind() == SqlType.Kind.SQL_VARIANT) {
                variants.add(i);
            } else if (col != null && col.type().kind() == SqlType.Kind.ROWVERSION) {
                stamps.add(i);
            }
        }
        boolean computed = declared.values().stream().anyMatch(c -> c.computed() != null);
        if (variants.isEmpty() && stamps.isEmpty() && (m.group(2) != null || !computed)) {
            return sql;
        }
        String head = sql.substring(0, m.start(1)) + sql.substring(m.start(1), m.end(1));
        StringBuilder list = new StringBuilder(" (");
        for (int i = 0; i < columns.size(); i++) {
            list.append(i == 0 ? "" : ", ").append(Names.quote(columns.get(i)));
        }
        if (variants.isEmpty() && stamps.isEmpty()) {
            return head + list + ") " + sql.substring(m.start(3));
        }
        if (m.group(4) == null) {
            if (!stamps.isEmpty()) {
                throw explicitTimestamp();
            }
            throw new SqlServerError(50000, 1, 16, "mssql-twin: an INSERT into the sql_variant column '"
                + columns.get(variants.get(0)) + "' must give its values in VALUES (..) (literals, CASTs or parameters),"
                + " so the twin can keep each value's base type");
        }
        for (int v : variants) {
            list.append(", ").append(Names.quote(TableDdl.variantTypeColumn(columns.get(v))));
        }
        StringBuilder rows = new StringBuilder();
        for (String tuple : TableDdl.split(sql.substring(m.start(4)))) {
            String t = tuple.trim();
            if (!t.startsWith("(") || !t.endsWith(")")) {
                throw SqlErrors.syntax(t);
            }
            List<String> items = new ArrayList<>(TableDdl.split(t.substring(1, t.length() - 1)));
            if (items.size() != columns.size()) {
                throw new SqlServerError(213, 1, 16, "Column name or number of supplied values does not match table "
                    + "definition.");
            }
            for (int k : stamps) {
                // SQL Server takes DEFAULT (or NULL) for a timestamp column and fills it; any value is error 273
                if (!items.get(k).trim().equalsIgnoreCase("DEFAULT") && !items.get(k).trim().equalsIgnoreCase("NULL")) {
                    throw explicitTimestamp();
                }
                items.set(k, "DEFAULT");
            }
            StringBuilder row = new StringBuilder("(").append(String.join(", ", items));
            for (int v : variants) {
                String base = Variants.baseType(items.get(v), values, columns.get(v));
                row.append(", ").append(base == null ? "NULL" : Names.literal(base));
            }
            rows.append(rows.length() == 0 ? "" : ", ").append(row).append(')');
        }
        return head + list + ") VALUES " + rows;
    }

    private static SqlServerError explicitTimestamp() {
        return new SqlServerError(273, 1, 16, "Cannot insert an explicit value into a timestamp column. Use INSERT "
            + "with a column list to exclude the timestamp column, or insert a DEFAULT into the timestamp column.");
    }

    /**
     * An UPDATE may not set a timestamp column (272); setting a sql_variant column also sets its base type
     * ({@code SET v = 1.5} becomes {@code SET v = 1.5, v__twin_basetype = 'numeric'}).
     */
    private static String update(EngineSession s, String sql, Matcher u, Map<String, Object> values)
        throws SQLException, SqlServerError {
        Names.Table table;
        try {
            table = Names.table(sql.substring(u.start(1), u.end(1)));
        } catch (IllegalArgumentException e) {
            return sql;
        }
        Map<String, TwinCatalog.Column> declared = s.declaredColumns(table.schema(), table.name());
        if (declared.values().stream().noneMatch(c -> c.type().kind() == SqlType.Kind.ROWVERSION
            || c.type().kind() == SqlType.Kind.SQL_VARIANT)) {
            return sql;
        }
        int from = u.start(2);
        int to = sql.length();
        Matcher end = SET_END.matcher(SqlText.mask(sql).substring(from));
        if (end.find()) {
            to = from + end.start();
        }
        StringBuilder set = new StringBuilder();
        for (String assignment : TableDdl.split(sql.substring(from, to))) {
            set.append(set.length() == 0 ? "" : ", ").append(assignment);
            int eq = SqlText.mask(assignment).indexOf('=');
            if (eq < 0) {
                continue;
            }
            List<String> target;
            try {
                target = Names.parts(assignment.substring(0, eq));
            } catch (IllegalArgumentException e) {
                continue; // a compound assignment (+=) or something H2 will report
            }
            TwinCatalog.Column col = declared.get(target.get(target.size() - 1).toLowerCase(Locale.ROOT));
            if (col == null) {
                continue;
            }
            if (col.type().kind() == SqlType.Kind.ROWVERSION) {
                throw new SqlServerError(272, 1, 16, "Cannot update a timestamp column.");
            }
            if (col.type().kind() == SqlType.Kind.SQL_VARIANT) {
                String base = Variants.baseType(assignment.substring(eq + 1), values, col.name());
                StringBuilder companion = new StringBuilder();
                for (int i = 0; i < target.size() - 1; i++) {
                    companion.append(Names.quote(target.get(i))).append('.');
                }
                set.append(", ").append(companion).append(Names.quote(TableDdl.variantTypeColumn(col.name())))
                    .append(" = ").append(base == null ? "NULL" : Names.literal(base));
            }
        }
        return sql.substring(0, from) + set + (to < sql.length() ? " " + sql.substring(to) : "");
    }
}
