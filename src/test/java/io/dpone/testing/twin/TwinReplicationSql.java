package io.dpone.testing.twin;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The statement shapes the twin's replication emulation recognises: a {@code CREATE TABLE} with a
 * {@code Replicated*MergeTree} engine, the target of an {@code INSERT INTO}, {@code DROP TABLE} and
 * {@code SYSTEM SYNC REPLICA}, each with its (possibly database-qualified, possibly backquoted) table name.
 */
final class TwinReplicationSql {
    private static final String NAME = "(?:`(?:[^`\\\\]|\\\\.)*`|[A-Za-z_][A-Za-z0-9_]*)";
    private static final String QUALIFIED = "(" + NAME + "(?:\\s*\\.\\s*" + NAME + ")?)";
    private static final Pattern CREATE = Pattern.compile(
        "(?is)^\\s*CREATE\\s+TABLE\\s+(IF\\s+NOT\\s+EXISTS\\s+)?" + QUALIFIED);
    private static final Pattern REPLICATED_ENGINE = Pattern.compile(
        "(?is)\\bENGINE\\s*=\\s*(Replicated([A-Za-z]*MergeTree))\\b(\\s*\\()?");
    private static final Pattern INSERT = Pattern.compile("(?is)^\\s*INSERT\\s+INTO\\s+(?:TABLE\\s+)?" + QUALIFIED);
    private static final Pattern DROP = Pattern.compile(
        "(?is)^\\s*DROP\\s+TABLE\\s+(IF\\s+EXISTS\\s+)?" + QUALIFIED + "(?:\\s+SYNC)?\\s*;?\\s*$");
    private static final Pattern SYNC = Pattern.compile("(?is)^\\s*SYSTEM\\s+SYNC\\s+REPLICA\\s+" + QUALIFIED
        + "(?:\\s+(?:STRICT|LIGHTWEIGHT|PULL)\\b.*)?\\s*;?\\s*$");
    private static final Pattern STRING = Pattern.compile("(?s)^'((?:[^'\\\\]|\\\\.)*)'$");

    private TwinReplicationSql() {
    }

    /** A table name and where it stands in the statement. */
    record Name(String database, String table, int start, int end) {
    }

    /**
     * A replicated {@code CREATE TABLE}: the table, whether {@code IF NOT EXISTS}, the engine as written
     * ({@code ReplicatedMergeTree}), the statement with the non-replicated engine instead (the replication
     * arguments removed, the others kept), and the replication path and replica name arguments (null: the
     * server defaults).
     */
    record ReplicatedCreate(Name name, boolean ifNotExists, String engine, String localSql, String path,
                            String replica) {
    }

    static Optional<ReplicatedCreate> replicatedCreate(String sql, String database) {
        Matcher c = CREATE.matcher(sql);
        if (!c.find()) {
            return Optional.empty();
        }
        Matcher e = REPLICATED_ENGINE.matcher(sql);
        if (!e.find(c.end())) {
            return Optional.empty();
        }
        String path = null;
        String replica = null;
        String rest;
        String args = "";
        if (e.group(3) != null) {
            int close = closingParen(sql, e.end());
            List<String> parts = splitArgs(sql.substring(e.end(), close));
            if (parts.size() >= 2 && STRING.matcher(parts.get(0)).matches() && STRING.matcher(parts.get(1)).matches()) {
                path = unquoteString(parts.get(0));
                replica = unquoteString(parts.get(1));
                parts = parts.subList(2, parts.size());
            }
            args = String.join(", ", parts);
            rest = sql.substring(close + 1);
        } else {
            rest = sql.substring(e.end());
        }
        String local = sql.substring(0, e.start(1)) + e.group(2) + "(" + args + ")" + rest;
        return Optional.of(new ReplicatedCreate(name(c, 2, database), c.group(1) != null, e.group(1), local, path,
            replica));
    }

    /** The table an {@code INSERT INTO} writes (not {@code INSERT INTO FUNCTION}). */
    static Optional<Name> insertTarget(String sql, String database) {
        Matcher m = INSERT.matcher(sql);
        if (!m.find() || m.group(1).equalsIgnoreCase("FUNCTION")) {
            return Optional.empty();
        }
        return Optional.of(name(m, 1, database));
    }

    /** The table a {@code DROP TABLE [IF EXISTS] t [SYNC]} drops. */
    static Optional<Name> dropTarget(String sql, String database) {
        Matcher m = DROP.matcher(sql);
        return m.matches() ? Optional.of(name(m, 2, database)) : Optional.empty();
    }

    /** The table of a {@code SYSTEM SYNC REPLICA t}. */
    static Optional<Name> syncTarget(String sql, String database) {
        Matcher m = SYNC.matcher(sql);
        return m.matches() ? Optional.of(name(m, 1, database)) : Optional.empty();
    }

    /**
     * A setting as the statement or its request sets it: the request's URL parameter first, else the statement's
     * {@code SETTINGS name = value} (a string literal unquoted); null when neither sets it.
     */
    static String setting(TwinRequest request, String sql, String name) {
        String value = request.settings().get(name);
        if (value != null) {
            return value;
        }
        Matcher m = Pattern.compile("(?is)\\b" + Pattern.quote(name) + "\\s*=\\s*('(?:[^'\\\\]|\\\\.)*'|[0-9A-Za-z_]+)")
            .matcher(sql);
        if (!m.find()) {
            return null;
        }
        return m.group(1).startsWith("'") ? unquoteString(m.group(1)) : m.group(1);
    }

    private static Name name(Matcher m, int group, String database) {
        List<String> parts = new ArrayList<>();
        String text = m.group(group);
        int i = 0;
        StringBuilder current = new StringBuilder();
        while (i < text.length()) {
            char ch = text.charAt(i);
            if (ch == '`') {
                int j = i + 1;
                while (j < text.length() && text.charAt(j) != '`') {
                    j += text.charAt(j) == '\\' ? 2 : 1;
                }
                current.append(text, i + 1, j);
                i = j + 1;
            } else if (ch == '.') {
                parts.add(current.toString());
                current.setLength(0);
                i++;
            } else {
                if (!Character.isWhitespace(ch)) {
                    current.append(ch);
                }
                i++;
            }
        }
        parts.add(current.toString());
        List<String> unescaped = parts.stream().map(p -> p.replaceAll("\\\\(.)", "$1")).toList();
        return unescaped.size() == 2
            ? new Name(unescaped.get(0), unescaped.get(1), m.start(group), m.end(group))
            : new Name(database, unescaped.get(0), m.start(group), m.end(group));
    }

    /** The index of the parenthesis closing the one just before {@code from}, skipping quoted text. */
    private static int closingParen(String sql, int from) {
        int depth = 1;
        for (int i = from; i < sql.length(); i++) {
            char ch = sql.charAt(i);
            if (ch == '\'') {
                i = endOfString(sql, i);
            } else if (ch == '(') {
                depth++;
            } else if (ch == ')' && --depth == 0) {
                return i;
            }
        }
        throw new IllegalArgumentException("unbalanced engine arguments");
    }

    private static int endOfString(String sql, int open) {
        int i = open + 1;
        while (i < sql.length() && sql.charAt(i) != '\'') {
            i += sql.charAt(i) == '\\' ? 2 : 1;
        }
        return i;
    }

    private static List<String> splitArgs(String args) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < args.length(); i++) {
            char ch = args.charAt(i);
            if (ch == '\'') {
                i = endOfString(args, i);
            } else if (ch == '(') {
                depth++;
            } else if (ch == ')') {
                depth--;
            } else if (ch == ',' && depth == 0) {
                parts.add(args.substring(start, i).strip());
                start = i + 1;
            }
        }
        if (!args.isBlank()) {
            parts.add(args.substring(start).strip());
        }
        return parts;
    }

    private static String unquoteString(String literal) {
        Matcher m = STRING.matcher(literal);
        return m.matches() ? m.group(1).replaceAll("\\\\(.)", "$1") : literal;
    }
}
