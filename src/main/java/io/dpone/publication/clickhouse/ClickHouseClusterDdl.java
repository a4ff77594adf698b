package io.dpone.publication.clickhouse;

import io.dpone.clickhouse.ClickHouseQueryException;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.ServerClickHouseEndpoint;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.publication.protocol.ClusterDdl;
import io.dpone.publication.protocol.ClusterStatement;
import io.dpone.publication.protocol.DdlOutcomeUnknownException;
import io.dpone.publication.protocol.DdlQueueEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * The distributed-DDL channel of one cluster through one initiator (a real server: ON CLUSTER does not run on the
 * embedded engine). {@link #submit} sends the statement once with the deterministic query id, the
 * {@code log_comment} marker that binds its queue entry (see {@link DdlQueueRows}), and
 * {@code distributed_ddl_task_timeout}. Outcomes:
 * <ul>
 * <li>the initiator answered with every host done: returns;</li>
 * <li>the entry is (or may be) in the queue but the answer is incomplete: the wait timed out
 *     ({@code TIMEOUT_EXCEEDED}), a host reported an error ({@code There was an error on ...}), or the connection
 *     was lost: {@link DdlOutcomeUnknownException}; reconcile from {@link #entry} and the members' UUIDs;</li>
 * <li>the initiator refused the statement before queueing it (syntax, access, unknown cluster):
 *     {@code publication.ddl_failed}.</li>
 * </ul>
 */
public final class ClickHouseClusterDdl implements ClusterDdl {
    private static final Pattern QUERY_ID = Pattern.compile("^[A-Za-z0-9_.:-]{1,128}$");
    private static final Pattern ENTERED_QUEUE = Pattern.compile(
        "TIMEOUT_EXCEEDED|Code: 159\\b|distributed_ddl_task_timeout|There was an error on|is executing longer than");

    private final String cluster;
    private final ServerClickHouseEndpoint initiator;
    private final Duration taskTimeout;

    public ClickHouseClusterDdl(String cluster, ServerClickHouseEndpoint initiator, Duration taskTimeout) {
        ClickHouseSql.id(cluster);
        if (taskTimeout.isNegative() || taskTimeout.isZero()) {
            throw new IllegalArgumentException("the distributed DDL task timeout must be positive");
        }
        this.cluster = cluster;
        this.initiator = initiator;
        this.taskTimeout = taskTimeout;
    }

    /** The statement text with {@code ON CLUSTER}. */
    public static String render(String cluster, ClusterStatement statement) {
        if (statement instanceof ClusterStatement.Create c) {
            return TableDefinitionSql.create(c.definition(), cluster);
        }
        ClusterStatement.Exchange x = (ClusterStatement.Exchange) statement;
        return "EXCHANGE TABLES " + ClickHouseSql.table(x.database(), x.a()) + " AND "
            + ClickHouseSql.table(x.database(), x.b()) + " ON CLUSTER " + ClickHouseSql.id(cluster);
    }

    /** The query-level settings the statement is sent with. */
    static Map<String, String> settings(String queryId, Duration taskTimeout) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put(DdlQueueRows.MARKER_SETTING, DdlQueueRows.marker(queryId));
        s.put("distributed_ddl_task_timeout", Long.toString(Math.max(1, taskTimeout.toSeconds())));
        s.put("distributed_ddl_output_mode", "throw");
        return s;
    }

    @Override
    public void submit(String queryId, ClusterStatement statement) {
        checkQueryId(queryId);
        String sql = render(cluster, statement);
        try {
            initiator.execute(sql, queryId, settings(queryId, taskTimeout));
        } catch (ClickHouseQueryException e) {
            if (ENTERED_QUEUE.matcher(String.valueOf(e.getMessage())).find()) {
                throw new DdlOutcomeUnknownException("distributed DDL " + queryId
                    + " entered the queue but did not finish everywhere in time; reconcile from its queue entry");
            }
            throw new DponeException(BlockerCode.PUBLICATION_DDL_FAILED, "ddl " + queryId,
                "the initiator refused distributed DDL " + queryId + ": " + MemberFailures.safe(e.getMessage()));
        } catch (DponeException e) {
            if (e.blockers().stream().anyMatch(b -> b.code().equals(BlockerCode.CONNECTION_FAILED.code()))) {
                throw new DdlOutcomeUnknownException("connection lost while distributed DDL " + queryId
                    + " was in flight; reconcile from its queue entry");
            }
            throw e;
        }
    }

    @Override
    public Optional<DdlQueueEntry> entry(String queryId) {
        checkQueryId(queryId);
        try {
            return DdlQueueRows.entry(cluster, queryId, initiator.query(DdlQueueRows.select(cluster, queryId)));
        } catch (ClickHouseQueryException e) {
            throw new DponeException(BlockerCode.PUBLICATION_DDL_FAILED, "ddl " + queryId,
                "the distributed DDL queue cannot be read: " + MemberFailures.safe(e.getMessage()));
        }
    }

    @Override
    public OptionalLong entriesSince(Instant since) {
        try {
            List<List<String>> rows = initiator.query(DdlQueueRows.countSince(since));
            return rows.isEmpty() ? OptionalLong.of(0) : OptionalLong.of(Long.parseLong(rows.get(0).get(0)));
        } catch (ClickHouseQueryException e) {
            throw new DponeException(BlockerCode.PUBLICATION_DDL_FAILED, "ddl queue",
                "the distributed DDL queue cannot be read: " + MemberFailures.safe(e.getMessage()));
        }
    }

    private static void checkQueryId(String queryId) {
        if (queryId == null || !QUERY_ID.matcher(queryId).matches()) {
            throw new IllegalArgumentException("query id must be 1-128 letters, digits, '_', '.', ':' or '-'");
        }
    }
}
