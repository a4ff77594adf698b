package io.dpone.publication.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.publication.MemberId;
import io.dpone.publication.artifact.GenerationMarker;
import io.dpone.publication.artifact.TableDefinition;
import io.dpone.publication.protocol.ClusterStatement;
import io.dpone.publication.protocol.DdlQueueEntry;
import io.dpone.publication.protocol.DdlQueueEntry.Status;
import io.dpone.testing.TestEngines;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Rendering and queue-status mapping; the statements themselves run only against a real cluster (the IT). */
@io.dpone.testing.EngineTest
class ClickHouseClusterDdlTest {
    static final String CLUSTER = "analytics_cluster_external";

    @Test
    void rendersExchangeAndCreateOnCluster() {
        assertEquals("EXCHANGE TABLES `analytics`.`target_table` AND `analytics`.`cand_1` ON CLUSTER"
                + " `analytics_cluster_external`",
            ClickHouseClusterDdl.render(CLUSTER, new ClusterStatement.Exchange("analytics", "target_table", "cand_1")));
        TableDefinition d = new TableDefinition("analytics", "cand_1", List.of(new TableDefinition.Column("id", "Int64")),
            "ReplicatedMergeTree", List.of("id"), new GenerationMarker("g-1", "op-1"));
        assertEquals("CREATE TABLE `analytics`.`cand_1` ON CLUSTER `analytics_cluster` (`id` Int64)"
                + " ENGINE = ReplicatedMergeTree() ORDER BY (`id`) COMMENT 'dpone.generation=g-1;operation=op-1'",
            ClickHouseClusterDdl.render("analytics_cluster", new ClusterStatement.Create(d)));
    }

    @Test
    void settingsCarryTheMarkerAndTimeout() {
        Map<String, String> s = ClickHouseClusterDdl.settings("dpone-op-1-exchange", Duration.ofSeconds(180));
        assertEquals("dpone-ddl:dpone-op-1-exchange", s.get("log_comment"));
        assertEquals("180", s.get("distributed_ddl_task_timeout"));
        assertTrue(DdlQueueRows.select(CLUSTER, "dpone-op-1-exchange")
            .contains("settings['log_comment'] = 'dpone-ddl:dpone-op-1-exchange'"));
    }

    @Test
    void queueRowsMapToOpaqueMembers() {
        List<List<String>> rows = List.of(
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

    @Test
    void theQueueColumnsTheBindingReadsExist() {
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            List<List<String>> cols = ch.query("SELECT name, type FROM system.columns WHERE database = 'system'"
                + " AND table = 'distributed_ddl_queue' AND name IN ('entry', 'cluster', 'host', 'port', 'status',"
                + " 'exception_code', 'settings') ORDER BY name");
            assertEquals(7, cols.size(), cols.toString());
            assertTrue(cols.contains(List.of("settings", "Map(String, String)")), cols.toString());
        }
    }

    @Test
    void theQueueCountReadsTheWholeQueueByCreationTime() {
        String sql = DdlQueueRows.countSince(java.time.Instant.parse("2026-01-02T03:04:05.900Z"));
        assertTrue(sql.contains("query_create_time >= toDateTime(1767323045, 'UTC')"), sql);
        assertFalse(sql.contains("cluster ="), "max_tasks_in_queue bounds the queue every cluster shares");
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            assertEquals(List.of(List.of("query_create_time", "DateTime")), ch.query("SELECT name, type FROM"
                + " system.columns WHERE database = 'system' AND table = 'distributed_ddl_queue'"
                + " AND name = 'query_create_time'"));
            assertFalse(ch.query("EXPLAIN AST " + sql).isEmpty(), "the statement parses");
        }
    }

    private static List<String> row(String... values) {
        return Arrays.asList(values);
    }
}
