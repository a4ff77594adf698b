package io.dpone.testing.twin;

import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.chdb.ChdbConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads that show a twin's replicated tables as a server shows them. {@code system.tables} is read through a
 * subquery that reports each replicated table's engine as created ({@code ReplicatedMergeTree}, not the engine's
 * {@code MergeTree}; the other columns, {@code engine_full} and {@code create_table_query} included, are the
 * engine's). {@code system.replicas} is answered from Keeper and this twin's registry: the query runs as written
 * against a table the twin fills with one row per replicated table ({@code database}, {@code table},
 * {@code engine}, {@code is_readonly}, {@code is_session_expired}, {@code zookeeper_path}, {@code replica_name},
 * {@code replica_path}, {@code queue_size}, {@code inserts_in_queue}, {@code log_max_index}, {@code log_pointer},
 * {@code total_replicas}, {@code active_replicas}, {@code replica_is_active}). The twin advances
 * {@code log_pointer} when it has applied an entry, so {@code queue_size} is the entries not applied yet.
 */
final class TwinReplicaReads {
    private static final Pattern SYSTEM_TABLES = Pattern.compile("(?i)\\bsystem\\s*\\.\\s*tables\\b");
    private static final Pattern SYSTEM_REPLICAS = Pattern.compile("(?i)\\bsystem\\s*\\.\\s*replicas\\b");
    private static final String REPLICAS_COPY = "`_dpone_twin_replication`.`replicas`";

    private final TwinEngine engine;
    private final TwinCatalog catalog;
    private final TwinReplicatedTables tables;
    private final TwinReplicaLog log;

    TwinReplicaReads(TwinEngine engine, TwinCatalog catalog, TwinReplicatedTables tables, TwinReplicaLog log) {
        this.engine = engine;
        this.catalog = catalog;
        this.tables = tables;
        this.log = log;
    }

    ChdbConnection.Result run(TwinRequest request, String sql, String format) throws Exception {
        if (SYSTEM_REPLICAS.matcher(sql).find()) {
            return replicas(request, sql, format);
        }
        return engine.run(request, withTables(sql), format);
    }

    /** {@code sql} with {@code system.tables} read through the subquery that names replicated engines. */
    String withTables(String sql) {
        var all = tables.all();
        if (all.isEmpty() || !SYSTEM_TABLES.matcher(sql).find()) {
            return sql;
        }
        List<String> uuids = new ArrayList<>();
        List<String> engines = new ArrayList<>();
        for (TwinReplicatedTables.Replica r : all) {
            uuids.add(ClickHouseSql.literal(r.uuid()));
            engines.add(ClickHouseSql.literal(r.engine()));
        }
        String view = "(SELECT * REPLACE (transform(toString(uuid), [" + String.join(", ", uuids) + "], ["
            + String.join(", ", engines) + "], engine) AS engine) FROM system.tables)";
        return SYSTEM_TABLES.matcher(sql).replaceAll(Matcher.quoteReplacement(view));
    }

    /** Fills the replicas' copy from the registry and Keeper and runs the read against it; one read at a time. */
    private synchronized ChdbConnection.Result replicas(TwinRequest request, String sql, String format)
            throws Exception {
        TwinRequest plain = TwinCatalog.plain();
        engine.run(plain, "CREATE DATABASE IF NOT EXISTS `_dpone_twin_replication` ENGINE = Memory", "TabSeparated");
        engine.run(plain, "CREATE TABLE IF NOT EXISTS " + REPLICAS_COPY + " (database String, table String,"
            + " engine String, is_readonly UInt8, is_session_expired UInt8, zookeeper_path String, replica_name String,"
            + " replica_path String, queue_size UInt32, inserts_in_queue UInt32, log_max_index UInt64,"
            + " log_pointer UInt64, total_replicas UInt8, active_replicas UInt8,"
            + " replica_is_active Map(String, UInt8)) ENGINE = Memory", "TabSeparated");
        engine.run(plain, "TRUNCATE TABLE " + REPLICAS_COPY, "TabSeparated");
        List<String> rows = new ArrayList<>();
        for (TwinReplicatedTables.Replica r : tables.all()) {
            String[] name = catalog.nameOf(r.uuid()).orElse(null);
            long pointer = log.pointer(r.zkPath(), r.name());
            if (name == null || pointer < 0) {
                continue;
            }
            long head = log.head(r.zkPath());
            Map<String, String> hosts = log.hosts(r.zkPath());
            List<String> activity = new ArrayList<>();
            int active = 0;
            for (String replica : hosts.keySet()) {
                boolean on = log.active(r.zkPath(), replica);
                active += on ? 1 : 0;
                activity.add(ClickHouseSql.literal(replica) + ", " + (on ? 1 : 0));
            }
            long queued = Math.max(0, head - pointer);
            rows.add("(" + ClickHouseSql.literal(name[0]) + ", " + ClickHouseSql.literal(name[1]) + ", "
                + ClickHouseSql.literal(r.engine()) + ", 0, 0, " + ClickHouseSql.literal(r.zkPath()) + ", "
                + ClickHouseSql.literal(r.name()) + ", " + ClickHouseSql.literal(r.zkPath() + "/replicas/" + r.name())
                + ", " + queued + ", " + queued + ", " + Math.max(0, head - 1) + ", " + pointer + ", " + hosts.size()
                + ", " + active + ", map(" + String.join(", ", activity) + "))");
        }
        if (!rows.isEmpty()) {
            engine.run(plain, "INSERT INTO " + REPLICAS_COPY + " VALUES " + String.join(", ", rows), "TabSeparated");
        }
        return engine.run(request, withTables(SYSTEM_REPLICAS.matcher(sql).replaceAll(
            Matcher.quoteReplacement(REPLICAS_COPY))), format);
    }
}
