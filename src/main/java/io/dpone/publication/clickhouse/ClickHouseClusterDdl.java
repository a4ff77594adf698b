package io.dpone.publication.clickhouse;

import io.dpone.clickhouse.ClickHouseQueryException;
import io.dpone.clickhouse.cluster.ClusterDdlStatement;
import io.dpone.clickhouse.cluster.DistributedDdl;
import io.dpone.clickhouse.ServerClickHouseEndpoint;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.publication.protocol.ClusterDdl;
import io.dpone.publication.protocol.ClusterStatement;
import io.dpone.publication.protocol.DdlOutcomeUnknownException;
import io.dpone.publication.protocol.DdlQueueEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * The distributed-DDL channel of one cluster through one initiator (a real server: ON CLUSTER does not run on the
 * embedded engine), over the ClickHouse package's {@link DistributedDdl}. {@link #submit} sends the statement once
 * with the deterministic query id, the {@code log_comment} marker that binds its queue entry (see
 * {@link DdlQueueRows}), and {@code distributed_ddl_task_timeout}. Outcomes:
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
    private final DistributedDdl ddl;
    private final Duration taskTimeout;

    public ClickHouseClusterDdl(String cluster, ServerClickHouseEndpoint initiator, Duration taskTimeout) {
        this.ddl = new DistributedDdl(cluster, initiator);
        if (taskTimeout.isNegative() || taskTimeout.isZero()) {
            throw new IllegalArgumentException("the distributed DDL task timeout must be positive");
        }
        this.cluster = cluster;
        this.taskTimeout = taskTimeout;
    }

    /** The statement as the ClickHouse package sends it {@code ON CLUSTER}. */
    static ClusterDdlStatement statement(ClusterStatement statement) {
        if (statement instanceof ClusterStatement.Create c) {
            return new ClusterDdlStatement.Create(TableDefinitions.table(c.definition()));
        }
        ClusterStatement.Exchange x = (ClusterStatement.Exchange) statement;
        return new ClusterDdlStatement.Exchange(x.database(), x.a(), x.b());
    }

    @Override
    public void submit(String queryId, ClusterStatement statement) {
        checkQueryId(queryId);
        ClusterDdlStatement typed = statement(statement);
        try {
            ddl.submit(queryId, typed, taskTimeout);
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
            return DdlQueueRows.entry(cluster, queryId, ddl.entryRows(queryId));
        } catch (ClickHouseQueryException e) {
            throw new DponeException(BlockerCode.PUBLICATION_DDL_FAILED, "ddl " + queryId,
                "the distributed DDL queue cannot be read: " + MemberFailures.safe(e.getMessage()));
        }
    }

    @Override
    public OptionalLong entriesSince(Instant since) {
        try {
            return OptionalLong.of(ddl.entriesSince(since));
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
