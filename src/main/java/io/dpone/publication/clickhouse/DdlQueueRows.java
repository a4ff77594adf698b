package io.dpone.publication.clickhouse;

import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.publication.MemberId;
import io.dpone.publication.protocol.DdlQueueEntry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads one statement's entry from {@code system.distributed_ddl_queue}. The queue has no query-id column, so
 * the binding is a marker: dpone submits every ON CLUSTER statement with the query-level setting
 * {@code log_comment = 'dpone-ddl:<query id>'}; the initiator stores the statement's changed settings in the
 * entry (DDL entry format &ge; 2), and the queue exposes them in its {@code settings} map. Each row is one host
 * of the entry: {@code host} is the host name and {@code port} the native port as the cluster definition
 * advertises them, which is exactly what {@link MemberId#of} digests.
 */
public final class DdlQueueRows {
    static final String MARKER_SETTING = "log_comment";
    static final String MARKER_PREFIX = "dpone-ddl:";

    private DdlQueueRows() {
    }

    static String marker(String queryId) {
        return MARKER_PREFIX + queryId;
    }

    /** Rows: entry, host, port, status, exception_code, ordered by entry then host. */
    static String select(String cluster, String queryId) {
        return "SELECT entry, host, toString(port), toString(status), toString(exception_code)"
            + " FROM system.distributed_ddl_queue WHERE cluster = " + ClickHouseSql.literal(cluster)
            + " AND settings[" + ClickHouseSql.literal(MARKER_SETTING) + "] = " + ClickHouseSql.literal(marker(queryId))
            + " ORDER BY entry, host, port";
    }

    /**
     * One value: how many entries the whole queue (every cluster's: {@code max_tasks_in_queue} bounds the shared
     * queue path) holds that were created at or after {@code since} (whole seconds, rounded down: counts more).
     */
    static String countSince(java.time.Instant since) {
        return "SELECT toString(uniqExact(entry)) FROM system.distributed_ddl_queue"
            + " WHERE query_create_time >= toDateTime(" + Math.max(0, since.getEpochSecond()) + ", 'UTC')";
    }

    /**
     * The entry from its rows. Should a marker ever match two entries (it cannot unless the statement was sent
     * twice), the first entry is the bound one. Rows without a host (the entry is being written or removed) are
     * skipped; an entry without any host row is no entry.
     */
    public static Optional<DdlQueueEntry> entry(String cluster, String queryId, List<List<String>> rows) {
        String first = null;
        Map<MemberId, DdlQueueEntry.Status> members = new TreeMap<>();
        for (List<String> r : rows) {
            if (first == null) {
                first = r.get(0);
            }
            if (!first.equals(r.get(0)) || r.get(1) == null || r.get(1).isEmpty() || r.get(2) == null) {
                continue;
            }
            members.put(MemberId.of(cluster, r.get(1), Integer.parseInt(r.get(2))), status(r.get(3), r.get(4)));
        }
        return members.isEmpty() ? Optional.empty() : Optional.of(new DdlQueueEntry(queryId, members));
    }

    /**
     * {@code Finished} with exception code 0 is FINISHED, with another code FAILED; {@code Active} is ACTIVE;
     * {@code Inactive}, {@code Unknown}, {@code Removing} or none is QUEUED (not known to have run).
     */
    static DdlQueueEntry.Status status(String status, String exceptionCode) {
        if ("Finished".equals(status)) {
            return exceptionCode == null || exceptionCode.isEmpty() || "0".equals(exceptionCode)
                || "\\N".equals(exceptionCode) ? DdlQueueEntry.Status.FINISHED : DdlQueueEntry.Status.FAILED;
        }
        if ("Active".equals(status)) {
            return DdlQueueEntry.Status.ACTIVE;
        }
        return DdlQueueEntry.Status.QUEUED;
    }
}
