package io.dpone.clickhouse.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.testing.TestEngines;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The distributed-DDL statements and queue reads as text, and the queue's columns they read checked on the embedded
 * engine (which has the table but no cluster: the statements themselves run only against a real cluster, the IT).
 */
@io.dpone.testing.EngineTest
class DistributedDdlTest {
    static final String CLUSTER = "analytics_cluster_external";

    @Test
    void exchangeRendersOnCluster() {
        assertEquals("EXCHANGE TABLES `analytics`.`target_table` AND `analytics`.`cand_1` ON CLUSTER"
                + " `analytics_cluster_external`",
            DistributedDdl.render(CLUSTER, new ClusterDdlStatement.Exchange("analytics", "target_table", "cand_1")));
    }

    @Test
    void theEntryIsBoundByTheMarkerSetting() {
        String sql = DistributedDdl.entrySql(CLUSTER, "dpone-op-1-exchange");
        assertTrue(sql.contains("settings['log_comment'] = 'dpone-ddl:dpone-op-1-exchange'"), sql);
        assertTrue(sql.contains("cluster = 'analytics_cluster_external'"), sql);
        assertEquals("dpone-ddl:dpone-op-1-exchange",
            DistributedDdl.settings("dpone-op-1-exchange", java.time.Duration.ofMillis(10)).get("log_comment"));
        assertEquals("1", DistributedDdl.settings("q", java.time.Duration.ofMillis(10))
            .get("distributed_ddl_task_timeout"), "at least one second");
    }

    @Test
    void theQueueColumnsTheBindingReadsExist() {
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            List<List<String>> cols = ch.query("SELECT name, type FROM system.columns WHERE database = 'system'"
                + " AND table = 'distributed_ddl_queue' AND name IN ('entry', 'cluster', 'host', 'port', 'status',"
                + " 'exception_code', 'settings') ORDER BY name");
            assertEquals(7, cols.size(), cols.toString());
            assertTrue(cols.contains(List.of("settings", "Map(String, String)")), cols.toString());
            assertFalse(ch.query("EXPLAIN AST " + DistributedDdl.entrySql(CLUSTER, "q-1")).isEmpty(),
                "the entry read parses");
        }
    }

    @Test
    void theQueueCountReadsTheWholeQueueByCreationTime() {
        String sql = DistributedDdl.countSinceSql(java.time.Instant.parse("2026-01-02T03:04:05.900Z"));
        assertTrue(sql.contains("query_create_time >= toDateTime(1767323045, 'UTC')"), sql);
        assertFalse(sql.contains("cluster ="), "max_tasks_in_queue bounds the queue every cluster shares");
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            assertEquals(List.of(List.of("query_create_time", "DateTime")), ch.query("SELECT name, type FROM"
                + " system.columns WHERE database = 'system' AND table = 'distributed_ddl_queue'"
                + " AND name = 'query_create_time'"));
            assertFalse(ch.query("EXPLAIN AST " + sql).isEmpty(), "the statement parses");
        }
    }
}
