package io.dpone.testing.twin;

import io.dpone.clickhouse.ClickHouseSql;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/** Table lookups on the twin's engine by name and by UUID (what replication resolves a table by). */
final class TwinCatalog {
    private final TwinEngine engine;

    TwinCatalog(TwinEngine engine) {
        this.engine = engine;
    }

    /** The UUID of {@code database.table}, or empty when no such table exists. */
    Optional<String> uuidOf(String database, String table) throws InterruptedException {
        return first("SELECT toString(uuid) FROM system.tables WHERE database = " + ClickHouseSql.literal(database)
            + " AND name = " + ClickHouseSql.literal(table));
    }

    /** The database and name the table {@code uuid} has now, or empty when it is gone. */
    Optional<String[]> nameOf(String uuid) throws InterruptedException {
        return first("SELECT database, name FROM system.tables WHERE uuid = toUUID(" + ClickHouseSql.literal(uuid)
            + ")").map(line -> line.split("\t", -1));
    }

    /** {@code nameOf(uuid)} as the quoted {@code db.table}. */
    Optional<String> qualifiedNameOf(String uuid) throws InterruptedException {
        return nameOf(uuid).map(n -> ClickHouseSql.table(n[0], n[1]));
    }

    private Optional<String> first(String sql) throws InterruptedException {
        String text = new String(engine.run(plain(), sql, "TabSeparatedRaw").bytes(), StandardCharsets.UTF_8);
        int eol = text.indexOf('\n');
        String line = eol < 0 ? text : text.substring(0, eol);
        return line.isEmpty() ? Optional.empty() : Optional.of(line);
    }

    /** A request of the twin's own: no credentials checked, the default database, no query settings. */
    static TwinRequest plain() {
        return new TwinRequest("", "", "default", "TabSeparated", null, false, false, null, Map.of());
    }
}
