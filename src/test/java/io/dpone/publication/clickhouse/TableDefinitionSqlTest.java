package io.dpone.publication.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dpone.publication.artifact.GenerationMarker;
import io.dpone.publication.artifact.TableDefinition;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableDefinitionSqlTest {
    static final List<TableDefinition.Column> COLS = List.of(new TableDefinition.Column("id", "Int32"),
        new TableDefinition.Column("at", "Nullable(DateTime64(7, 'UTC'))"));

    @Test
    void rendersNonReplicatedWithDedupWindowAndComment() {
        TableDefinition d = new TableDefinition("analytics", "cand", COLS, "MergeTree", List.of("id"),
            new GenerationMarker("g-1", "op-1"));
        assertEquals("CREATE TABLE `analytics`.`cand` (`id` Int32, `at` Nullable(DateTime64(7, 'UTC')))"
            + " ENGINE = MergeTree() ORDER BY (`id`) SETTINGS non_replicated_deduplication_window = 1000"
            + " COMMENT 'dpone.generation=g-1;operation=op-1'", TableDefinitionSql.create(d, null));
    }

    @Test
    void rendersReplicatedOnCluster() {
        TableDefinition d = new TableDefinition("analytics", "cand", COLS, "ReplicatedMergeTree", List.of("id"),
            new GenerationMarker("g-1", "op-1"));
        assertEquals("CREATE TABLE `analytics`.`cand` ON CLUSTER `analytics_cluster` (`id` Int32,"
            + " `at` Nullable(DateTime64(7, 'UTC'))) ENGINE = ReplicatedMergeTree() ORDER BY (`id`)"
            + " COMMENT 'dpone.generation=g-1;operation=op-1'", TableDefinitionSql.create(d, "analytics_cluster"));
    }

    @Test
    void refusesSplicedTypesAndNames() {
        TableDefinition type = new TableDefinition("a", "t", List.of(new TableDefinition.Column("id",
            "Int32) ENGINE = Memory; --")), "MergeTree", List.of("id"), null);
        assertThrows(IllegalArgumentException.class, () -> TableDefinitionSql.create(type, null));
        TableDefinition name = new TableDefinition("a", "t`x", COLS, "MergeTree", List.of("id"), null);
        assertThrows(IllegalArgumentException.class, () -> TableDefinitionSql.create(name, null));
    }
}
