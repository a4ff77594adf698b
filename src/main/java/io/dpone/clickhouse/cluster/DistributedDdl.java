package io.dpone.clickhouse.cluster;

import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.ServerClickHouseEndpoint;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The distributed-DDL operations of one cluster through one initiator (a real server: ON CLUSTER does not run on the
 * embedded engine): a statement sent once with its query id and the marker that binds its queue entry, that entry's
 * rows, and how many entries the queue holds since a time. The queue has no query-id column, so the binding is a
 * marker: every statement goes with the query-level setting {@code log_comment = 'dpone-ddl:<query id>'}; the
 * initiator stores the statement's changed settings in the entry (DDL entry format &ge; 2), and the queue exposes them
 * in its {@code settings} map. Failures reach the caller as the endpoint raised them.
 */
public final class DistributedDdl {
    static final String MARKER_SETTING = "log_comment";
    static final String MARKER_PREFIX = "dpone-ddl:";

    private final String cluster;
    private final ServerClickHouseEndpoint initiator;

    public DistributedDdl(String cluster, ServerClickHouseEndpoint initiator) {
        ClickHouseSql.id(cluster);
        this.cluster = cluster;
        this.initiator = initiator;
    }

    /** The statement text with {@code ON CLUSTER}. */
    public static String render(String cluster, ClusterDdlStatement statement) {
        return statement.sql(cluster);
    }

    /**
     * The query-level settings a statement is sent with: the marker, {@code distributed_ddl_task_timeout} (whole
     * seconds, at least 1) and {@code distributed_ddl_output_mode = throw}.
     */
    public static Map<String, String> settings(String queryId, Duration taskTimeout) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put(MARKER_SETTING, MARKER_PREFIX + queryId);
        s.put("distributed_ddl_task_timeout", Long.toString(Math.max(1, taskTimeout.toSeconds())));
        s.put("distributed_ddl_output_mode", "throw");
        return s;
    }

    /** Sends {@code statement} {@code ON CLUSTER} once, with query id {@code queryId} and {@link #settings}. */
    public void submit(String queryId, ClusterDdlStatement statement, Duration taskTimeout) {
        initiator.execute(render(cluster, statement), queryId, settings(queryId, taskTimeout));
    }

    /** One host's row of a queue entry; {@code host} and {@code port} are null while the entry is written or removed. */
    public record QueueRow(String entry, String host, String port, String status, String exceptionCode) {
    }

    /** The rows of the queue entries bound to {@code queryId} on this cluster, ordered by entry then host and port. */
    public List<QueueRow> entryRows(String queryId) {
        return initiator.query(entrySql(cluster, queryId)).stream()
            .map(r -> new QueueRow(r.get(0), r.get(1), r.get(2), r.get(3), r.get(4))).toList();
    }

    /**
     * How many entries the whole queue (every cluster's: {@code max_tasks_in_queue} bounds the shared queue path)
     * holds that were created at or after {@code since} (whole seconds, rounded down: counts more).
     */
    public long entriesSince(Instant since) {
        List<List<String>> rows = initiator.query(countSinceSql(since));
        return rows.isEmpty() ? 0 : Long.parseLong(rows.get(0).get(0));
    }

    static String entrySql(String cluster, String queryId) {
        return "SELECT entry, host, toString(port), toString(status), toString(exception_code)"
            + " FROM system.distributed_ddl_queue WHERE cluster = " + ClickHouseSql.literal(cluster)
            + " AND settings[" + ClickHouseSql.literal(MARKER_SETTING) + "] = "
            + ClickHouseSql.literal(MARKER_PREFIX + queryId) + " ORDER BY entry, host, port";
    }

    static String countSinceSql(Instant since) {
        return "SELECT toString(uniqExact(entry)) FROM system.distributed_ddl_queue"
            + " WHERE query_create_time >= toDateTime(" + Math.max(0, since.getEpochSecond()) + ", 'UTC')";
    }
}
