package io.dpone.testing.mssql.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * T-SQL object names: {@code [dbo].[orders]}, {@code dbo.orders}, {@code orders}, {@code db.dbo.orders}. Every part is
 * validated before it reaches H2 text, and quoted with double quotes there (H2 reads brackets in MSSQLServer mode
 * too, but a double-quoted part cannot be confused with T-SQL syntax the twin rewrites).
 */
final class Names {
    private Names() {
    }

    /** A schema-qualified table name; schema defaults to {@code dbo}. */
    record Table(String schema, String name) {
        String h2() {
            return quote(schema) + "." + quote(name);
        }

        String key() {
            return schema.toLowerCase(Locale.ROOT) + "." + name.toLowerCase(Locale.ROOT);
        }

        @Override
        public String toString() {
            return schema + "." + name;
        }
    }

    /** The parts of a multi-part name, brackets and quotes removed. */
    static List<String> parts(String text) {
        List<String> parts = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        String t = text.trim();
        for (int i = 0; i < t.length(); i++) {
            char ch = t.charAt(i);
            if (ch == '[' || ch == '"') {
                char close = ch == '[' ? ']' : '"';
                int j = i + 1;
                while (j < t.length()) {
                    if (t.charAt(j) == close) {
                        if (j + 1 < t.length() && t.charAt(j + 1) == close) {
                            cur.append(close);
                            j += 2;
                            continue;
                        }
                        break;
                    }
                    cur.append(t.charAt(j++));
                }
                if (j >= t.length()) {
                    throw new IllegalArgumentException("unclosed identifier: " + text);
                }
                i = j;
            } else if (ch == '.') {
                parts.add(cur.toString());
                cur.setLength(0);
            } else if (!Character.isWhitespace(ch)) {
                cur.append(ch);
            }
        }
        parts.add(cur.toString());
        for (String p : parts) {
            validate(p);
        }
        return parts;
    }

    /** {@code [schema].[table]} or {@code table} (schema dbo); a database part, if any, is dropped. */
    static Table table(String text) {
        List<String> p = parts(text);
        if (p.size() > 3) {
            throw new IllegalArgumentException("not a table name: " + text);
        }
        String schema = p.size() >= 2 && !p.get(p.size() - 2).isEmpty() ? p.get(p.size() - 2) : "dbo";
        return new Table(schema, p.get(p.size() - 1));
    }

    static String validate(String part) {
        if (part.isEmpty() || part.length() > 128 || part.indexOf('"') >= 0 || part.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("invalid identifier: " + part);
        }
        return part;
    }

    static String quote(String part) {
        return "\"" + validate(part) + "\"";
    }

    /** A T-SQL string literal for text the twin itself produced (never for client values: those are bound). */
    static String literal(String s) {
        return "'" + s.replace("'", "''") + "'";
    }
}
