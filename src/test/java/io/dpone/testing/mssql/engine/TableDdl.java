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
 * {@code IDENTITY[(seed, step)]}, {@code DEFAULT}, {@code [CONSTRAINT n] PRIMARY KEY [CLUSTERED]}, {@code UNIQUE};
 * per table: {@code [CONSTRAINT n] PRIMARY KEY|UNIQUE [CLUSTERED|NONCLUSTERED] (cols [ASC|DESC])}.
 */
final class TableDdl {
    private static final Pattern CREATE = Pattern.compile("(?is)\\s*CREATE\\s+TABLE\\s+(" + SqlText.NAME + ")\\s*\\((.*)\\)\\s*");
    private static final Pattern TABLE_KEY = Pattern.compile(
        "(?is)\\s*(?:CONSTRAINT\\s+(" + SqlText.NAME + ")\\s+)?(PRIMARY\\s+KEY|UNIQUE)\\s*(?:CLUSTERED|NONCLUSTERED)?\\s*\\((.*)\\)"
            + ".*");

    /** The translation of a definition: H2 column / constraint texts and the declared columns. */
    record Definition(List<String> h2Elements, List<TwinCatalog.Column> columns) {
    }

    private TableDdl() {
    }

    /** {@code CREATE TABLE}: the table and its definition. */
    static Names.Table createTarget(String sql) {
        Matcher m = matcher(sql);
        return Names.table(sql.substring(m.start(1), m.end(1)));
    }

    static Definition create(String sql) {
        Matcher m = matcher(sql);
        return elements(split(sql.substring(m.start(2), m.end(2))), 1);
    }

    private static Matcher matcher(String sql) {
        Matcher m = CREATE.matcher(SqlText.mask(sql));
        if (!m.matches()) {
            throw new IllegalArgumentException("CREATE TABLE");
        }
        return m;
    }

    /** Column definitions and table constraints, the columns numbered from {@code firstOrdinal}. */
    static Definition elements(List<String> elements, int firstOrdinal) {
        List<String> h2 = new ArrayList<>();
        List<TwinCatalog.Column> columns = new ArrayList<>();
        int ordinal = firstOrdinal;
        for (String e : elements) {
            Matcher key = TABLE_KEY.matcher(SqlText.mask(e));
            if (key.matches()) {
                String name = key.group(1) == null ? "" : "CONSTRAINT " + Names.quote(Names.parts(
                    e.substring(key.start(1), key.end(1))).get(0)) + " ";
                h2.add(name + key.group(2).toUpperCase(Locale.ROOT).replaceAll("\\s+", " ") + " ("
                    + keyColumns(e.substring(key.start(3), key.end(3))) + ")");
            } else if (SqlText.mask(e).trim().toUpperCase(Locale.ROOT).matches("(CONSTRAINT|FOREIGN|CHECK)\\b.*")) {
                h2.add(e);
            } else {
                Column c = column(e, ordinal++);
                columns.add(c.declared);
                h2.add(c.h2);
            }
        }
        return new Definition(h2, columns);
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

    private static Column column(String element, int ordinal) {
        List<String> t = tokens(element);
        if (t.size() < 2) {
            throw new IllegalArgumentException("column definition: " + element);
        }
        String name = Names.parts(t.get(0)).get(0);
        int i = 1;
        StringBuilder type = new StringBuilder(t.get(i++));
        if (i < t.size() && t.get(i).startsWith("(")) {
            type.append(t.get(i++));
        }
        if (i + 1 < t.size() && t.get(i).equalsIgnoreCase("COLLATE")) {
            type.append(" COLLATE ").append(t.get(i + 1));
            i += 2;
        }
        SqlType declared = SqlType.parse(type.toString().replace("[", "").replace("]", ""));
        String quoted = Names.quote(name);
        StringBuilder tail = new StringBuilder();
        String defaultExpr = null;
        String identity = null;
        boolean notNull = false;
        while (i < t.size()) {
            String tok = t.get(i++).toUpperCase(Locale.ROOT);
            switch (tok) {
                case "NOT" -> {
                    i++; // NULL
                    notNull = true;
                }
                case "NULL", "CLUSTERED", "NONCLUSTERED", "ROWGUIDCOL", "SPARSE" -> {
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
                case "CONSTRAINT" -> tail.append(" CONSTRAINT ").append(Names.quote(Names.parts(t.get(i++)).get(0)));
                case "PRIMARY" -> {
                    i++; // KEY
                    tail.append(" PRIMARY KEY");
                    notNull = true;
                }
                case "UNIQUE" -> tail.append(" UNIQUE");
                default -> throw new IllegalArgumentException("column option " + tok);
            }
        }
        String check = H2Types.check(declared, quoted);
        String h2 = quoted + " " + H2Types.h2(declared) + (defaultExpr != null ? " DEFAULT " + defaultExpr : "")
            + (identity != null ? identity : "") + (notNull ? " NOT NULL" : "") + tail
            + (check != null ? " CHECK (" + check + ")" : "");
        return new Column(new TwinCatalog.Column(name, ordinal, declared, identity != null), h2);
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
