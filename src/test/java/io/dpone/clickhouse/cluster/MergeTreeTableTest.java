package io.dpone.clickhouse.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dpone.clickhouse.CatalogueReads.Column;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code CREATE TABLE} for a table cluster publication creates, on a member or {@code ON CLUSTER}. */
class MergeTreeTableTest {
    static final List<Column> COLS = List.of(new Column("id", "Int32"),
        new Column("at", "Nullable(DateTime64(7, 'UTC'))"));
    static final String MARKER = "dpone.generation=g-1;operation=op-1";

    @Test
    void rendersNonReplicatedWithDedupWindowAndComment() {
        MergeTreeTable t = new MergeTreeTable("analytics", "cand", COLS, "MergeTree", List.of("id"), MARKER);
        assertEquals("CREATE TABLE `analytics`.`cand` (`id` Int32, `at` Nullable(DateTime64(7, 'UTC')))"
            + " ENGINE = MergeTree() ORDER BY (`id`) SETTINGS non_replicated_deduplication_window = 1000"
            + " COMMENT 'dpone.generation=g-1;operation=op-1'", t.createSql(null));
    }

    @Test
    void rendersReplicatedOnCluster() {
        MergeTreeTable t = new MergeTreeTable("analytics", "cand", COLS, "ReplicatedMergeTree", List.of("id"), MARKER);
        assertEquals("CREATE TABLE `analytics`.`cand` ON CLUSTER `analytics_cluster` (`id` Int32,"
            + " `at` Nullable(DateTime64(7, 'UTC'))) ENGINE = ReplicatedMergeTree() ORDER BY (`id`)"
            + " COMMENT 'dpone.generation=g-1;operation=op-1'", t.createSql("analytics_cluster"));
        assertEquals(t.createSql("analytics_cluster"), DistributedDdl.render("analytics_cluster",
            new ClusterDdlStatement.Create(t)));
    }

    @Test
    void rendersNoCommentWithoutAMarker() {
        MergeTreeTable t = new MergeTreeTable("a", "t", COLS.subList(0, 1), "MergeTree", List.of("id"), null);
        assertEquals("CREATE TABLE `a`.`t` (`id` Int32) ENGINE = MergeTree() ORDER BY (`id`)"
            + " SETTINGS non_replicated_deduplication_window = 1000", t.createSql(null));
    }

    @Test
    void refusesSplicedTypesNamesAndEngines() {
        MergeTreeTable type = new MergeTreeTable("a", "t", List.of(new Column("id", "Int32) ENGINE = Memory; --")),
            "MergeTree", List.of("id"), null);
        assertThrows(IllegalArgumentException.class, () -> type.createSql(null));
        MergeTreeTable name = new MergeTreeTable("a", "t`x", COLS, "MergeTree", List.of("id"), null);
        assertThrows(IllegalArgumentException.class, () -> name.createSql(null));
        MergeTreeTable engine = new MergeTreeTable("a", "t", COLS, "Memory() --", List.of("id"), null);
        assertThrows(IllegalArgumentException.class, () -> engine.createSql(null));
    }
}
