package io.dpone.publication.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.cluster.DistributedDdl;
import io.dpone.clickhouse.cluster.DistributedDdl.QueueRow;
import io.dpone.publication.MemberId;
import io.dpone.publication.artifact.GenerationMarker;
import io.dpone.publication.artifact.TableDefinition;
import io.dpone.publication.protocol.ClusterStatement;
import io.dpone.publication.protocol.DdlQueueEntry;
import io.dpone.publication.protocol.DdlQueueEntry.Status;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Rendering and queue-status mapping; the statements themselves run only against a real cluster (the IT). The queue
 * reads' SQL is checked against the engine in {@code io.dpone.clickhouse.cluster.DistributedDdlTest}.
 */
class ClickHouseClusterDdlTest {
    static final String CLUSTER = "analytics_cluster_external";

    @Test
    void rendersExchangeAndCreateOnCluster() {
        assertEquals("EXCHANGE TABLES `analytics`.`target_table` AND `analytics`.`cand_1` ON CLUSTER"
                + " `analytics_cluster_external`",
            render(CLUSTER, new ClusterStatement.Exchange("analytics", "target_table", "cand_1")));
        TableDefinition d = new TableDefinition("analytics", "cand_1", List.of(new TableDefinition.Column("id", "Int64")),
            "ReplicatedMergeTree", List.of("id"), new GenerationMarker("g-1", "op-1"));
        assertEquals("CREATE TABLE `analytics`.`cand_1` ON CLUSTER `analytics_cluster` (`id` Int64)"
                + " ENGINE = ReplicatedMergeTree() ORDER BY (`id`) COMMENT 'dpone.generation=g-1;operation=op-1'",
            render("analytics_cluster", new ClusterStatement.Create(d)));
    }

    @Test
    void settingsCarryTheMarkerAndTimeout() {
        Map<String, String> s = DistributedDdl.settings("dpone-op-1-exchange", Duration.ofSeconds(180));
        assertEquals("dpone-ddl:dpone-op-1-exchange", s.get("log_comment"));
        assertEquals("180", s.get("distributed_ddl_task_timeout"));
    }

    @Test
    void queueRowsMapToOpaqueMembers() {
        List<QueueRow> rows = List.of(
            row("query-0000000007", "ch1", "9000", "Finished", "0"),
            row("query-0000000007", "ch2", "9000", "Active", "0"),
            row("query-0000000007", "ch3", "9000", "Finished", "57"),
            row("query-0000000007", "ch4", "9000", "Inactive", null),
            row("query-0000000007", null, null, "Unknown", null),
            row("query-0000000009", "ch1", "9000", "Finished", "0"));
        DdlQueueEntry e = DdlQueueRows.entry(CLUSTER, "q-1", rows).orElseThrow();
        assertEquals("q-1", e.queryId());
        assertEquals(Map.of(MemberId.of(CLUSTER, "ch1", 9000), Status.FINISHED,
            MemberId.of(CLUSTER, "ch2", 9000), Status.ACTIVE,
            MemberId.of(CLUSTER, "ch3", 9000), Status.FAILED,
            MemberId.of(CLUSTER, "ch4", 9000), Status.QUEUED), e.members());
        assertTrue(DdlQueueRows.entry(CLUSTER, "q-1", List.of()).isEmpty(), "expired or never sent");
        assertTrue(e.finishedEverywhere(List.of(MemberId.of(CLUSTER, "ch1", 9000))));
    }

    private static QueueRow row(String entry, String host, String port, String status, String exceptionCode) {
        return new QueueRow(entry, host, port, status, exceptionCode);
    }

    private static String render(String cluster, ClusterStatement statement) {
        return DistributedDdl.render(cluster, ClickHouseClusterDdl.statement(statement));
    }
}
