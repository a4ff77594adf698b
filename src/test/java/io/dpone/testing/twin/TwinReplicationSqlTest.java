package io.dpone.testing.twin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The statement shapes the replication emulation recognises, as dpone and a user write them. */
class TwinReplicationSqlTest {
    private static final TwinRequest REQUEST = new TwinRequest("u", "p", "default", "TabSeparated", null, false,
        false, null, Map.of());

    @Test
    void aReplicatedCreateLosesItsReplicationArgumentsAndKeepsTheRest() {
        var dpone = TwinReplicationSql.replicatedCreate("CREATE TABLE `db`.`t` UUID '0f5c0e3e-1b9e-4a7e-9d8e-2b4c6a1e0f11'"
            + " (`id` Int32) ENGINE = ReplicatedMergeTree() ORDER BY (`id`) COMMENT 'dpone:x'", "default").orElseThrow();
        assertEquals("db", dpone.name().database());
        assertEquals("t", dpone.name().table());
        assertEquals("ReplicatedMergeTree", dpone.engine());
        assertEquals("CREATE TABLE `db`.`t` UUID '0f5c0e3e-1b9e-4a7e-9d8e-2b4c6a1e0f11' (`id` Int32) ENGINE ="
            + " MergeTree() ORDER BY (`id`) COMMENT 'dpone:x'", dpone.localSql());
        assertNull(dpone.path());
        assertFalse(dpone.ifNotExists());

        var explicit = TwinReplicationSql.replicatedCreate("create table if not exists t (v UInt8, id Int32) engine ="
            + " ReplicatedReplacingMergeTree('/tables/{shard}/t', '{replica}', v) order by id", "sales").orElseThrow();
        assertEquals("sales", explicit.name().database());
        assertEquals("ReplicatedReplacingMergeTree", explicit.engine());
        assertEquals("/tables/{shard}/t", explicit.path());
        assertEquals("{replica}", explicit.replica());
        assertTrue(explicit.ifNotExists());
        assertTrue(explicit.localSql().endsWith("engine = ReplacingMergeTree(v) order by id"), explicit.localSql());

        var bare = TwinReplicationSql.replicatedCreate("CREATE TABLE t (id UInt32) ENGINE = ReplicatedMergeTree ORDER BY"
            + " id", "default").orElseThrow();
        assertEquals("CREATE TABLE t (id UInt32) ENGINE = MergeTree() ORDER BY id", bare.localSql());

        assertTrue(TwinReplicationSql.replicatedCreate("CREATE TABLE t (id UInt32) ENGINE = MergeTree ORDER BY id",
            "default").isEmpty());
        assertTrue(TwinReplicationSql.replicatedCreate("SELECT 'ENGINE = ReplicatedMergeTree'", "default").isEmpty());
    }

    @Test
    void theInsertDropAndSyncTargetsAreTheirTables() {
        String load = "INSERT INTO `db`.`cand` (`id`, `name`) SELECT `id`, `name` FROM input('`id` Int32')"
            + " SETTINGS insert_deduplicate = 1, insert_deduplication_token = 'dpone-g-1-m', async_insert = 0 FORMAT Parquet";
        var target = TwinReplicationSql.insertTarget(load, "default").orElseThrow();
        assertEquals("db", target.database());
        assertEquals("cand", target.table());
        assertEquals("`db`.`cand`", load.substring(target.start(), target.end()));
        assertEquals("dpone-g-1-m", TwinReplicationSql.setting(REQUEST, load, "insert_deduplication_token"));
        assertEquals("1", TwinReplicationSql.setting(REQUEST, load, "insert_deduplicate"));
        assertEquals("t", TwinReplicationSql.insertTarget("insert into t FORMAT TSV", "x").orElseThrow().table());
        assertTrue(TwinReplicationSql.insertTarget("INSERT INTO FUNCTION file('x') VALUES (1)", "x").isEmpty());

        var drop = TwinReplicationSql.dropTarget("DROP TABLE `db`.`c\\`x` SYNC", "default").orElseThrow();
        assertEquals("db", drop.database());
        assertEquals("c`x", drop.table(), "a backquote escaped in the name");
        assertEquals("t", TwinReplicationSql.dropTarget("drop table if exists d.t", "default").orElseThrow().table());
        assertTrue(TwinReplicationSql.dropTarget("DROP DATABASE d", "default").isEmpty());
        assertEquals("d", TwinReplicationSql.syncTarget("SYSTEM SYNC REPLICA d.t STRICT", "x").orElseThrow().database());
        assertTrue(TwinReplicationSql.syncTarget("SYSTEM SYNC REPLICA d.t ON CLUSTER c", "x").isEmpty());

        TwinRequest withParam = new TwinRequest("u", "p", "default", "TabSeparated", null, false, false, null,
            Map.of("insert_deduplication_token", "from-url"));
        assertEquals("from-url", TwinReplicationSql.setting(withParam, load, "insert_deduplication_token"));
        assertNull(TwinReplicationSql.setting(REQUEST, "INSERT INTO t FORMAT TSV", "insert_deduplication_token"));
    }
}
