package io.dpone.testing.mssql.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * T-SQL table definitions ({@code CREATE TABLE}, {@code ALTER TABLE ... ADD}) translated to H2: each column's
 * declared {@link SqlType} (for the catalogue) and the H2 text that stores it. Understood per column: bracketed or
 * plain name, type with length / precision / {@code (max)} / {@code COLLATE}, {@code NULL}/{@code NOT NULL},
 * {@code IDENTITY[(seed, step)]}, {@code DEFAULT}, {@code [CONSTRAINT n] PRIMARY KEY [CLUSTERED]}, {@code UNIQUE},
 * {@code SPARSE}, an alias type ({@code dbo.Name}, resolved to its base type), a computed column
 * ({@code name AS (expr) [PERSISTED [NOT NULL]]}, typed once the stored columns exist: {@link Computed});
 * per table: {@code [CONSTRAINT n] PRIMARY KEY|UNIQUE [CLUSTERED|NONCLUSTERED] (cols [ASC|DESC])}.
 * A {@code sql_variant} column {@code c} gets an invisible companion {@code c__twin_basetype} holding the base
 * type of its value ({@link Variants}).
 */
final class TableDdl {
    private static final Pattern CREATE = Pattern.compile("(?is)\\s*CREATE\\s+TABLE\\s+(" + SqlText.NAME
        + ")\\s*\\((.*)\\)(?:\\s+(?:ON|TEXTIMAGE_ON)\\s+" + SqlText.NAME + ")*\\s*");
    private static final Pattern TABLE_KEY = Pattern.compile(
        "(?is)\\s*(?:CONSTRAINT\\s+(" + SqlText.NAME + ")\\s+)?(PRIMARY\\s+KEY|UNIQUE)\\s*"
            + "(?:CLUSTERED|NONCLUSTERED)?\\s*\\((.*?)\\).*");

    /** The translation of a definition: H2 column / constraint texts, the declared stored columns, the computed ones. */
    record Definition(List<String> h2Elements, List<TwinCatalog.Column> columns, List<Computed> computed) {
    }

    /**
     * A computed column: its expression as declared and the column it follows ({@code null}: the first), added once
     * the stored columns exist so H2 can type the expression.
     */
    record Computed(String name, int ordinal, String expression, String after) {
    }

    /** Finds the alias type a declared type names, or null. */
    interface Aliases {
        TwinCatalog.Alias find(String declared) throws java.sql.SQLException;

        Aliases NONE = declared -> null;
    }

    /** The invisible companion of a {@code sql_variant} column. */
    static String variantTypeColumn(String column) {
        return column + "__twin_basetype";
    }

    private TableDdl() {
    }

    /** {@code CREATE TABLE}: the table and its definition. */
    static Names.Table createTarget(String sql) {
        Matcher m = matcher(sql);
        return Names.table(sql.substring(m.start(1), m.end(1)));
    }

    static Definition create(String sql, Aliases aliases) throws java.sql.SQLException {
        Matcher m = matcher(sql);
        return elements(split(sql.substring(m.start(2), m.end(2))), 1, aliases, null);
    }

    private static Matcher matcher(String sql) {
        Matcher m = CREATE.matcher(SqlText.mask(sql));
        if (!m.matches()) {
            throw new IllegalArgumentException("CREATE TABLE");
        }
        return m;
    }

    /**
     * Column definitions and table constraints, the columns numbered from {@code firstOrdinal}; {@code lastColumn}
     * is the table's last column before them (null for a new table).
     */
    static Definition elements(List<String> elements, int firstOrdinal, Aliases aliases, String lastColumn)
        throws java.sql.SQLException {
        List<String> h2 = new ArrayList<>();
        List<TwinCatalog.Column> columns = new ArrayList<>();
        List<Computed> computed = new ArrayList<>();
        int ordinal = firstOrdinal;
        String previous = lastColumn;
        for (String e : elements) {
            List<String> t = tokens(e);
            if (t.size() >= 3 && t.get(1).equalsIgnoreCase("AS") && t.get(2).startsWith("(")) {
                String name = Names.parts(t.get(0)).get(0);
                for (int i = 3; i < t.size(); i++) {
                    if (!t.get(i).toUpperCase(Locale.ROOT).matches("PERSISTED|NOT|NULL")) {
                        throw new IllegalArgumentException("computed column option " + t.get(i));
                    }
                }
                String expr = t.get(2);
                computed.add(new Computed(name, ordinal++, expr.substring(1, expr.length() - 1).trim(), previous));
                previous = name;
                continue;
            }
            Matcher key = TABLE_KEY.matcher(SqlText.mask(e));
            if (key.matches()) {
                String name = key.group(1) == null ? "" : "CONSTRAINT " + Names.quote(Names.parts(
                    e.substring(key.start(1), key.end(1))).get(0)) + " ";
                h2.add(name + key.group(2).toUpperCase(Locale.ROOT).replaceAll("\\s+", " ") + " ("
                    + keyColumns(e.substring(key.start(3), key.end(3))) + ")");
            } else if (SqlText.mask(e).trim().toUpperCase(Locale.ROOT).matches("(CONSTRAINT|FOREIGN|CHECK)\\b.*")) {
                h2.add(e);
            } else {
                Column c = column(e, ordinal++, aliases);
                columns.add(c.declared);
                h2.add(c.h2);
                previous = c.declared.name();
            }
        }
        return new Definition(h2, columns, computed);
    }

    private static String keyColumns(String list) {
        List<String> out = new ArrayList<>();
        for (String c : split(list)) {
            String name = c.trim().replaceAll("(?i)\\s+(ASC|DESC)$", "");
            out.add(Names.quote(Names.parts(name).get(0)));
        }
        return String.join(", ", out);
    }

    private record Column(TwinCatalog.Column declared, String h2) {
    }

    private static Column column(String element, int ordinal, Aliases aliases) throws java.sql.SQLException {
        List<String> t = tokens(element);
        if (t.size() < 2) {
            throw new IllegalArgumentException("column definition: " + element);
        }
        String name = Names.parts(t.get(0)).get(0);
        int i = 1;
        StringBuilder type = new StringBuilder(t.get(i++));
        // a schema-qualified alias type: [dbo].[Name] tokenises as "[dbo]", ".", "[Name]"
        while (i < t.size() && (t.get(i).startsWith(".") || type.toString().endsWith("."))) {
            type.append(t.get(i++));
        }
        TwinCatalog.Alias alias = null;
        String typeText = type.toString();
        if (typeText.contains(".") || !knownType(typeText)) {
            alias = aliases.find(typeText);
            if (alias == null) {
                throw new IllegalArgumentException("not a SQL Server type the twin knows: " + typeText);
            }
        }
        if (alias == null && i < t.size() && t.get(i).startsWith("(")) {
            type.append(t.get(i++));
        }
        if (i + 1 < t.size() && t.get(i).equalsIgnoreCase("COLLATE")) {
            type.append(" COLLATE ").append(t.get(i + 1));
            i += 2;
        }
        SqlType declared = alias != null ? alias.base()
            : SqlType.parse(type.toString().replace("[", "").replace("]", ""));
        String quoted = Names.quote(name);
        StringBuilder tail = new StringBuilder();
        String defaultExpr = null;
        String identity = null;
        // an alias type's nullability is the column's unless it says otherwise; rowversion is NOT NULL by default
        boolean notNull = alias != null ? alias.notNull() : declared.kind() == SqlType.Kind.ROWVERSION;
        boolean sparse = false;
        while (i < t.size()) {
            String tok = t.get(i++).toUpperCase(Locale.ROOT);
            switch (tok) {
                case "NOT" -> {
                    i++; // NULL
                    notNull = true;
                }
                case "NULL" -> notNull = false;
                case "SPARSE" -> sparse = true;
                case "CLUSTERED", "NONCLUSTERED", "ROWGUIDCOL" -> {
                }
                case "IDENTITY" -> {
                    long seed = 1;
                    long step = 1;
                    if (i < t.size() && t.get(i).startsWith("(")) {
                        String[] a = t.get(i++).replaceAll("[()\\s]", "").split(",");
                        seed = Long.parseLong(a[0]);
                        step = a.length > 1 ? Long.parseLong(a[1]) : 1;
                    }
                    identity = " GENERATED BY DEFAULT AS IDENTITY (START WITH " + seed + " INCREMENT BY " + step + ")";
                    notNull = true;
                }
                case "DEFAULT" -> defaultExpr = t.get(i++);
                case "CONSTRAINT" -> {
                    String constraint = Names.quote(Names.parts(t.get(i++)).get(0));
                    // H2 has no named defaults: CONSTRAINT DF_x DEFAULT 0 keeps the default, drops the name
                    if (i >= t.size() || !t.get(i).equalsIgnoreCase("DEFAULT")) {
                        tail.append(" CONSTRAINT ").append(constraint);
                    }
                }
                case "PRIMARY" -> {
                    i++; // KEY
                    tail.append(" PRIMARY KEY");
                    notNull = true;
                }
                case "UNIQUE" -> tail.append(" UNIQUE");
                default -> throw new IllegalArgumentException("column option " + t.get(i - 1));
            }
        }
        String check = H2Types.check(declared, quoted);
        String h2 = quoted + " " + H2Types.h2(declared) + (defaultExpr != null ? " DEFAULT " + defaultExpr : "")
            + (identity != null ? identity : "") + (notNull ? " NOT NULL" : "") + tail
            + (check != null ? " CHECK (" + check + ")" : "");
        if (declared.kind() == SqlType.Kind.SQL_VARIANT) {
            h2 += ", " + Names.quote(variantTypeColumn(name)) + " VARCHAR(128) INVISIBLE";
        }
        return new Column(new TwinCatalog.Column(name, ordinal, declared, identity != null,
            alias != null ? alias.name() : null, null, sparse), h2);
    }

    private static boolean knownType(String text) {
        try {
            SqlType.parse(text.replace("[", "").replace("]", ""));
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Top-level comma-separated parts (commas inside parentheses, literals and brackets do not split). */
    static List<String> split(String body) {
        String m = SqlText.mask(body);
        List<String> out = new ArrayList<>();
        int depth = 0;
        int from = 0;
        for (int i = 0; i < m.length(); i++) {
            char ch = m.charAt(i);
            if (ch == '(') {
                depth++;
            } else if (ch == ')') {
                depth--;
            } else if (ch == ',' && depth == 0) {
                out.add(body.substring(from, i).trim());
                from = i + 1;
            }
        }
        String last = body.substring(from).trim();
        if (!last.isEmpty()) {
            out.add(last);
        }
        return out;
    }

    /** Words, bracketed names, literals ({@code N'..'} kept whole) and balanced parenthesised groups. */
    private static List<String> tokens(String s) {
        String m = SqlText.mask(s);
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < m.length()) {
            char ch = m.charAt(i);
            if (Character.isWhitespace(ch)) {
                i++;
                continue;
            }
            int j = i;
            if (ch == '(') {
                int depth = 0;
                do {
                    depth += m.charAt(j) == '(' ? 1 : m.charAt(j) == ')' ? -1 : 0;
                    j++;
                } while (j < m.length() && depth > 0);
            } else if (ch == '[' || ch == '\'' || ch == '"') {
                j = m.indexOf(ch == '[' ? ']' : ch, i + 1) + 1;
            } else if ((ch == 'N' || ch == 'n') && i + 1 < m.length() && m.charAt(i + 1) == '\'') {
                j = m.indexOf('\'', i + 2) + 1;
            } else {
                while (j < m.length() && !Character.isWhitespace(m.charAt(j)) && "(['".indexOf(m.charAt(j)) < 0) {
                    j++;
                }
                // a function call as one token (DEFAULT getdate())
                if (j < m.length() && m.charAt(j) == '(' && j > i && out.size() > 0
                    && out.get(out.size() - 1).equalsIgnoreCase("DEFAULT")) {
                    int depth = 0;
                    do {
                        depth += m.charAt(j) == '(' ? 1 : m.charAt(j) == ')' ? -1 : 0;
                        j++;
                    } while (j < m.length() && depth > 0);
                }
            }
            out.add(s.substring(i, j));
            i = j;
        }
        return out;
    }
}
