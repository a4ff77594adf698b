package io.dpone.route;

import io.dpone.clickhouse.ClickHouseEndpoint;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An in-memory {@link ClickHouseEndpoint} for the transfer route's processor-level tests: a catalogue of Atomic
 * databases and tables (with their comments) that answers the table-administration statements the steps send
 * ({@code system.databases}, {@code system.tables}, CREATE / DROP / EXCHANGE / RENAME, SYSTEM ... MERGES), keeps every
 * statement and chunk insert in order, and refuses any other statement, so a test sees unexpected SQL at once.
 * Row data is not kept: gates are computed by the engine tests, not here.
 */
final class FakeClickHouseEndpoint implements ClickHouseEndpoint {
    private static final String ID = "`((?:[^`]|``)+)`";
    private static final Pattern CREATE = Pattern.compile("CREATE TABLE " + ID + "\\." + ID + " .* COMMENT '(.*)'$");
    private static final Pattern DROP = Pattern.compile("DROP TABLE IF EXISTS " + ID + "\\." + ID);
    private static final Pattern EXCHANGE = Pattern.compile("EXCHANGE TABLES " + ID + "\\." + ID + " AND " + ID
        + "\\." + ID);
    private static final Pattern RENAME = Pattern.compile("RENAME TABLE " + ID + "\\." + ID + " TO " + ID + "\\." + ID);
    private static final Pattern MERGES = Pattern.compile("SYSTEM (STOP|START) MERGES .*");
    private static final Pattern INSERT_SELECT = Pattern.compile("INSERT INTO " + ID + "\\." + ID + " .*");
    private static final Pattern DATABASE = Pattern.compile("SELECT engine FROM system\\.databases WHERE name = '(.*)'");
    private static final Pattern TABLE_QUERY = Pattern.compile(
        "SELECT (1|comment) FROM system\\.tables WHERE database = '(.*)' AND name = '(.*)'");

    private static final Pattern SORTING_KEY = Pattern.compile(
        "SELECT sorting_key FROM system\\.tables WHERE database = '(.*)' AND name = '(.*)'");
    private static final Pattern ORDER_BY = Pattern.compile(".* ORDER BY (.*) COMMENT '.*'$");
    /** database.table -> the ORDER BY of its CREATE */
    private final Map<String, String> orderBy = new LinkedHashMap<>();
    /** database -> table -> comment */
    private final Map<String, Map<String, String>> tables = new LinkedHashMap<>();
    final List<String> statements = new ArrayList<>();
    final List<InsertFile> inserts = new ArrayList<>();
    /** Called with every statement before it takes effect (a test may check state at that moment, or throw). */
    Consumer<String> beforeEach = sql -> { };
    boolean closed;

    FakeClickHouseEndpoint database(String name) {
        tables.putIfAbsent(name, new LinkedHashMap<>());
        return this;
    }

    FakeClickHouseEndpoint table(String database, String table, String comment) {
        database(database).tables.get(database).put(table, comment);
        return this;
    }

    boolean exists(String database, String table) {
        return tables.getOrDefault(database, Map.of()).containsKey(table);
    }

    String comment(String database, String table) {
        return tables.getOrDefault(database, Map.of()).get(table);
    }

    @Override
    public synchronized void execute(String sql) {
        beforeEach.accept(sql);
        statements.add(sql);
        Matcher m;
        if ((m = CREATE.matcher(sql)).matches()) {
            table(unquote(m.group(1)), unquote(m.group(2)), m.group(3).replace("''", "'"));
            Matcher order = ORDER_BY.matcher(sql);
            if (order.matches()) {
                orderBy.put(unquote(m.group(1)) + "." + unquote(m.group(2)), order.group(1).replace("`", ""));
            }
        } else if ((m = DROP.matcher(sql)).lookingAt()) {
            tables.getOrDefault(unquote(m.group(1)), new LinkedHashMap<>()).remove(unquote(m.group(2)));
        } else if ((m = EXCHANGE.matcher(sql)).matches()) {
            String a = remove(m.group(1), m.group(2));
            String b = remove(m.group(3), m.group(4));
            table(unquote(m.group(1)), unquote(m.group(2)), b);
            table(unquote(m.group(3)), unquote(m.group(4)), a);
        } else if ((m = RENAME.matcher(sql)).matches()) {
            table(unquote(m.group(3)), unquote(m.group(4)), remove(m.group(1), m.group(2)));
        } else if (!MERGES.matcher(sql).matches() && !INSERT_SELECT.matcher(sql).matches()) {
            throw new IllegalArgumentException("the fake endpoint does not run: " + sql);
        }
    }

    private String remove(String database, String table) {
        String comment = tables.getOrDefault(unquote(database), new LinkedHashMap<>()).remove(unquote(table));
        if (comment == null) {
            throw new IllegalStateException("no table " + unquote(database) + "." + unquote(table));
        }
        return comment;
    }

    @Override
    public synchronized List<List<String>> query(String sql) {
        beforeEach.accept(sql);
        statements.add(sql);
        Matcher m;
        if ((m = DATABASE.matcher(sql)).matches()) {
            return tables.containsKey(m.group(1)) ? List.of(List.of("Atomic")) : List.of();
        }
        if ((m = TABLE_QUERY.matcher(sql)).lookingAt()) {
            String comment = comment(m.group(2), m.group(3));
            return comment == null ? List.of() : List.of(List.of("1".equals(m.group(1)) ? "1" : comment));
        }
        if (sql.startsWith("SELECT sorting_key FROM system.tables ")) {
            Matcher key = SORTING_KEY.matcher(sql);
            return key.matches() && orderBy.containsKey(key.group(1) + "." + key.group(2))
                ? List.of(List.of(orderBy.get(key.group(1) + "." + key.group(2)))) : List.of();
        }
        if (sql.startsWith("SELECT type FROM system.columns ")) {
            return List.of(); // column types are not kept: the gates' key ranges are the engine tests' concern
        }
        if (sql.startsWith("SELECT name FROM system.parts ")) {
            return List.of(); // parts are not kept: the gates' part-wise counts are the engine tests' concern
        }
        if (sql.startsWith("SELECT name FROM system.settings WHERE name IN (")) {
            return List.of(); // a server that knows none of the optional settings
        }
        if (sql.startsWith("SELECT name FROM system.tables WHERE database = ")) {
            String database = sql.replaceFirst("^SELECT name FROM system\\.tables WHERE database = '([^']*)'.*", "$1");
            String prefix = sql.replaceFirst(".*startsWith\\(name, '([^']*)'\\).*", "$1");
            return tables.getOrDefault(database, Map.of()).keySet().stream().filter(t -> t.startsWith(prefix))
                .map(List::of).toList();
        }
        throw new IllegalArgumentException("the fake endpoint does not answer: " + sql);
    }

    @Override
    public synchronized void insertFile(InsertFile insert) {
        beforeEach.accept("insertFile " + insert.table());
        inserts.add(insert);
    }

    @Override
    public String kind() {
        return "server";
    }

    @Override
    public void close() {
        closed = true;
    }

    private static String unquote(String id) {
        return id.startsWith("`") ? id.substring(1, id.length() - 1).replace("``", "`") : id.replace("``", "`");
    }
}
