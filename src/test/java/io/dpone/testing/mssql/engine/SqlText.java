package io.dpone.testing.mssql.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Lexical helpers over T-SQL text that respect string literals ({@code '..'}, {@code N'..'}), bracketed and quoted
 * identifiers and comments: a rewrite must never change a literal's content or a column called {@code [@P0]}.
 */
final class SqlText {
    /** A (multi-part) object name in masked text: brackets keep their delimiters there, their content is blank. */
    static final String NAME = "(?:\\[[^\\]]*\\]|\"[^\"]*\"|[\\w$#@]+)(?:\\s*\\.\\s*(?:\\[[^\\]]*\\]|\"[^\"]*\"|[\\w$#@]+))*";
    private static final Pattern PARAM = Pattern.compile("(?<![@\\w$#])@([A-Za-z_][A-Za-z0-9_$#]*)");

    private SqlText() {
    }

    /** {@code sql} with every literal, quoted identifier and comment blanked to spaces (same length, same offsets). */
    static String mask(String sql) {
        char[] out = sql.toCharArray();
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char ch = sql.charAt(i);
            int end;
            if (ch == '\'') {
                end = closing(sql, i, '\'');
            } else if (ch == '[') {
                end = closing(sql, i, ']');
            } else if (ch == '"') {
                end = closing(sql, i, '"');
            } else if (ch == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int nl = sql.indexOf('\n', i);
                end = nl < 0 ? n - 1 : nl;
            } else if (ch == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int close = sql.indexOf("*/", i + 2);
                end = close < 0 ? n - 1 : close + 1;
            } else {
                i++;
                continue;
            }
            // keep the delimiters of literals and identifiers so the masked text still parses as the same shape
            boolean keep = ch == '\'' || ch == '[' || ch == '"';
            for (int k = keep ? i + 1 : i; k <= end && k < n; k++) {
                if (!keep || k < end) {
                    out[k] = ' ';
                }
            }
            i = end + 1;
        }
        return new String(out);
    }

    private static int closing(String sql, int start, char close) {
        int j = start + 1;
        while (j < sql.length()) {
            if (sql.charAt(j) == close) {
                if (j + 1 < sql.length() && sql.charAt(j + 1) == close) {
                    j += 2;
                    continue;
                }
                return j;
            }
            j++;
        }
        return sql.length() - 1;
    }

    /** Statements of a batch, split at top-level semicolons; blank ones dropped. */
    static List<String> statements(String sql) {
        String m = mask(sql);
        List<String> out = new ArrayList<>();
        int from = 0;
        for (int i = 0; i <= m.length(); i++) {
            if (i == m.length() || m.charAt(i) == ';') {
                String s = sql.substring(from, i).trim();
                if (!s.isEmpty() && !mask(s).isBlank()) {
                    out.add(s);
                }
                from = i + 1;
            }
        }
        return out;
    }

    /** Replaces the matches of {@code p} found outside literals, identifiers and comments. */
    static String replace(String sql, Pattern p, Function<Matcher, String> replacement) {
        Matcher m = p.matcher(mask(sql));
        StringBuilder out = new StringBuilder();
        int last = 0;
        while (m.find()) {
            out.append(sql, last, m.start()).append(replacement.apply(m));
            last = m.end();
        }
        return out.append(sql.substring(last)).toString();
    }

    /** Text with each {@code @name} (not {@code @@name}) replaced by {@code ?}, and the names in order. */
    record Bound(String sql, List<String> names) {
    }

    static Bound bindParameters(String sql) {
        List<String> names = new ArrayList<>();
        String text = replace(sql, PARAM, m -> {
            names.add(m.group(1).toLowerCase(java.util.Locale.ROOT));
            return "?";
        });
        return new Bound(text, names);
    }

    /** Whether the masked text contains {@code p} (keywords outside literals). */
    static boolean contains(String sql, Pattern p) {
        return p.matcher(mask(sql)).find();
    }
}
