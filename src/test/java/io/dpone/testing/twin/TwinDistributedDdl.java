package io.dpone.testing.twin;

import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.chdb.ChdbConnection;
import io.dpone.clickhouse.chdb.ChdbException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The initiator's half of distributed DDL, as a ClickHouse server's {@code executeDDLQueryOnCluster}: a statement
 * with {@code ON CLUSTER c} is queued for every replica of {@code c} (its text without the clause; a
 * {@code CREATE TABLE} gets the UUID every replica of an Atomic database is given), then the initiator waits up to
 * {@code distributed_ddl_task_timeout} seconds for every host to record it finished. With
 * {@code distributed_ddl_output_mode = throw} a host's failure is {@code There was an error on [host]} and an
 * unfinished wait {@code TIMEOUT_EXCEEDED} (the entry stays queued and runs in the background); otherwise the answer
 * is one row per host. Reads of {@code system.distributed_ddl_queue} are answered from the shared queue: the query
 * runs as written against a table the twin fills with the queue's rows (one per entry and host).
 */
final class TwinDistributedDdl {
    private static final Pattern ON_CLUSTER = Pattern.compile(
        "(?is)^\\s*(?:CREATE|DROP|ALTER|RENAME|EXCHANGE|TRUNCATE|SYSTEM)\\b.*?(\\s+ON\\s+CLUSTER\\s+"
            + "(`(?:[^`\\\\]|\\\\.)+`|[A-Za-z_][A-Za-z0-9_]*))");
    private static final String NAME = "(?:`(?:[^`\\\\]|\\\\.)*`|[A-Za-z_][A-Za-z0-9_]*)";
    private static final Pattern CREATE_TABLE = Pattern.compile(
        "(?is)^(\\s*CREATE\\s+TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?" + NAME + "(?:\\s*\\.\\s*" + NAME + ")?)(\\s+UUID\\b)?");
    private static final Pattern QUEUE_TABLE = Pattern.compile("(?i)\\bsystem\\s*\\.\\s*distributed_ddl_queue\\b");
    private static final String QUEUE_COPY = "`_dpone_twin_ddl`.`distributed_ddl_queue`";
    private static final String RESULT_STRUCTURE = "host String, port UInt16, status Int64, error String,"
        + " num_hosts_remaining UInt64, num_hosts_active UInt64";

    private final TwinDdlQueue queue;
    private final TwinEngine engine;
    private final Map<String, List<String>> clusters;
    private final String initiator;

    TwinDistributedDdl(TwinDdlQueue queue, TwinEngine engine, Map<String, List<String>> clusters, String initiator) {
        this.queue = queue;
        this.engine = engine;
        this.clusters = clusters;
        this.initiator = initiator;
    }

    /** True when {@code sql} is distributed DDL or reads the queue. */
    static boolean handles(String sql) {
        return ON_CLUSTER.matcher(sql).find() || QUEUE_TABLE.matcher(sql).find();
    }

    ChdbConnection.Result run(TwinRequest request, String sql) throws Exception {
        Matcher m = ON_CLUSTER.matcher(sql);
        if (m.find()) {
            return submit(request, sql, m);
        }
        return readQueue(request, sql);
    }

    private ChdbConnection.Result submit(TwinRequest request, String sql, Matcher m) throws Exception {
        String cluster = unquote(m.group(2));
        List<String> hosts = clusters.get(cluster);
        if (hosts == null) {
            throw new ChdbException("Code: 701. DB::Exception: Requested cluster '" + cluster
                + "' not found. (CLUSTER_DOESNT_EXIST)");
        }
        String local = sql.substring(0, m.start(1)) + sql.substring(m.end(1));
        Matcher create = CREATE_TABLE.matcher(local);
        if (create.find() && create.group(2) == null) {
            local = create.group(1) + " UUID " + ClickHouseSql.literal(UUID.randomUUID().toString())
                + local.substring(create.end(1));
        }
        String name = queue.add(cluster, local, hosts, initiator, request.settings());
        long timeoutSeconds = Long.parseLong(request.settings().getOrDefault("distributed_ddl_task_timeout", "180"));
        long deadline = System.nanoTime() + timeoutSeconds * 1_000_000_000L;
        Map<String, TwinDdlQueue.Finished> finished = queue.finished(name);
        while (finished.size() < hosts.size() && System.nanoTime() < deadline) {
            Thread.sleep(50); // the initiator's wait for the hosts' finished nodes, polled as a server's is
            finished = queue.finished(name);
        }
        boolean throwing = "throw".equals(request.settings().getOrDefault("distributed_ddl_output_mode", "throw"));
        for (Map.Entry<String, TwinDdlQueue.Finished> f : finished.entrySet()) {
            if (f.getValue().code() != 0 && throwing) {
                throw new ChdbException("Code: " + f.getValue().code() + ". DB::Exception: There was an error on ["
                    + f.getKey() + "]: " + f.getValue().message());
            }
        }
        if (finished.size() < hosts.size() && throwing) {
            int active = queue.active(name).size();
            throw new ChdbException("Code: 159. DB::Exception: Distributed DDL task " + TwinDdlQueue.ROOT + "/" + name
                + " is not finished on " + (hosts.size() - finished.size()) + " of " + hosts.size() + " hosts ("
                + active + " of them are currently executing the task, " + (hosts.size() - finished.size() - active)
                + " are inactive). They are going to execute the query in background. (TIMEOUT_EXCEEDED)");
        }
        List<String> rows = new ArrayList<>();
        int remaining = hosts.size();
        for (Map.Entry<String, TwinDdlQueue.Finished> f : finished.entrySet()) {
            remaining--;
            rows.add("(" + hostAndPort(f.getKey()) + ", " + f.getValue().code() + ", "
                + ClickHouseSql.literal(f.getValue().message()) + ", " + remaining + ", 0)");
        }
        String answer = rows.isEmpty()
            ? "SELECT * FROM values(" + ClickHouseSql.literal(RESULT_STRUCTURE) + ", ('', 0, 0, '', 0, 0)) WHERE 0"
            : "SELECT * FROM values(" + ClickHouseSql.literal(RESULT_STRUCTURE) + ", " + String.join(", ", rows) + ")";
        return engine.run(plain(request), answer, request.format());
    }

    /** Fills the queue's copy from ZooKeeper and runs the read against it; one read at a time. */
    private synchronized ChdbConnection.Result readQueue(TwinRequest request, String sql) throws Exception {
        TwinRequest plain = plain(request);
        engine.run(plain, "CREATE DATABASE IF NOT EXISTS `_dpone_twin_ddl` ENGINE = Memory", "TabSeparated");
        engine.run(plain, "CREATE TABLE IF NOT EXISTS " + QUEUE_COPY + " (entry String, entry_version UInt64,"
            + " initiator_host String, initiator_port UInt16, cluster String, query String,"
            + " settings Map(String, String), query_create_time DateTime('UTC'), host String, port UInt16,"
            + " status Enum8('Inactive' = 0, 'Active' = 1, 'Finished' = 2, 'Removing' = 3, 'Unknown' = 4),"
            + " exception_code Nullable(UInt16), exception_text String, query_finish_time Nullable(DateTime('UTC')),"
            + " query_duration_ms Nullable(UInt64)) ENGINE = Memory", "TabSeparated");
        engine.run(plain, "TRUNCATE TABLE " + QUEUE_COPY, "TabSeparated");
        List<String> rows = new ArrayList<>();
        for (String name : queue.names()) {
            TwinDdlQueue.Entry e = queue.entry(name).orElse(null);
            if (e == null) {
                continue;
            }
            Map<String, TwinDdlQueue.Finished> finished = queue.finished(name);
            java.util.Set<String> active = queue.active(name);
            for (String host : e.hosts()) {
                TwinDdlQueue.Finished f = finished.get(host);
                rows.add("(" + ClickHouseSql.literal(name) + ", 5, " + hostAndPort(e.initiator()) + ", "
                    + ClickHouseSql.literal(e.cluster()) + ", " + ClickHouseSql.literal(e.query()) + ", "
                    + map(e.settings()) + ", toDateTime(" + e.createTime() + ", 'UTC'), "
                    + hostAndPort(host) + ", "
                    + ClickHouseSql.literal(f != null ? "Finished" : active.contains(host) ? "Active" : "Inactive")
                    + ", " + (f == null ? "NULL" : f.code()) + ", " + ClickHouseSql.literal(f == null ? "" : f.message())
                    + ", " + (f == null ? "NULL" : "toDateTime(" + f.finishTime() + ", 'UTC')") + ", "
                    + (f == null ? "NULL" : Math.max(0, (f.finishTime() - e.createTime()) * 1000)) + ")");
            }
        }
        if (!rows.isEmpty()) {
            engine.run(plain, "INSERT INTO " + QUEUE_COPY + " VALUES " + String.join(", ", rows), "TabSeparated");
        }
        return engine.run(request, QUEUE_TABLE.matcher(sql).replaceAll(Matcher.quoteReplacement(QUEUE_COPY)),
            request.format());
    }

    /** {@code host:port} as the two SQL values {@code 'host', port} (a port that is not a number is 0). */
    private static String hostAndPort(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        int port;
        try {
            port = Integer.parseInt(hostPort.substring(colon + 1));
        } catch (NumberFormatException e) {
            port = 0;
        }
        return ClickHouseSql.literal(hostPort.substring(0, Math.max(0, colon))) + ", " + port;
    }

    private static String map(Map<String, String> settings) {
        List<String> parts = new ArrayList<>();
        settings.forEach((k, v) -> {
            parts.add(ClickHouseSql.literal(k));
            parts.add(ClickHouseSql.literal(v));
        });
        return "map(" + String.join(", ", parts) + ")";
    }

    private static String unquote(String name) {
        return name.startsWith("`") ? name.substring(1, name.length() - 1).replaceAll("\\\\(.)", "$1") : name;
    }

    /** The request without its query settings: the twin's own statements run with none. */
    private static TwinRequest plain(TwinRequest r) {
        return new TwinRequest(r.user(), r.password(), "default", "TabSeparated", null, false, false, null, Map.of());
    }
}
