package io.dpone.publication.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.publication.MemberId;
import io.dpone.publication.admission.MemberAdmissionChecks.Mode;
import io.dpone.testing.TestEngines;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

@io.dpone.testing.EngineTest
class MemberAdmissionChecksTest {
    static final MemberId M = MemberId.of("analytics_cluster_external", "ch1", 9000);
    static final Duration WINDOW = Duration.ofDays(1);
    static ClickHouseEndpoint ch;

    @BeforeAll
    static void open() {
        ch = TestEngines.clickhouse();
    }

    @AfterAll
    static void close() {
        ch.close();
    }

    static List<String> codes(List<Blocker> blockers) {
        return blockers.stream().map(Blocker::code).toList();
    }

    @Test
    void anAtomicDatabaseWithAMergeTreeTargetPassesExternal() {
        String db = TestEngines.newAtomicDatabase(ch, "adm_ok");
        ch.execute("CREATE TABLE " + ClickHouseSql.table(db, "target") + " (id Int32) ENGINE = MergeTree ORDER BY id");
        assertEquals(List.of(), codes(MemberAdmissionChecks.check(M, ch, db, "target", Mode.EXTERNAL, WINDOW)));
        assertEquals(List.of(), codes(MemberAdmissionChecks.check(M, ch, db, "absent", Mode.EXTERNAL, WINDOW)));
        assertEquals(List.of(BlockerCode.PUBLICATION_ENGINE_MODE_MISMATCH.code()),
            codes(MemberAdmissionChecks.check(M, ch, db, "target", Mode.INTERNAL, WINDOW)));
    }

    @Test
    void nonAtomicDatabaseAndDistributedTargetBlock() {
        String db = TestEngines.newDatabase("adm_bad");
        ch.execute("CREATE DATABASE " + ClickHouseSql.id(db) + " ENGINE = Memory");
        assertEquals(List.of(BlockerCode.PUBLICATION_DATABASE_NOT_ATOMIC.code()),
            codes(MemberAdmissionChecks.check(M, ch, db, "target", Mode.EXTERNAL, WINDOW)));
        assertEquals(List.of(BlockerCode.PUBLICATION_DATABASE_NOT_ATOMIC.code()),
            codes(MemberAdmissionChecks.check(M, ch, "absent_db_x", "target", Mode.EXTERNAL, WINDOW)));
        String atomic = TestEngines.newAtomicDatabase(ch, "adm_dist");
        ch.execute("CREATE TABLE " + ClickHouseSql.table(atomic, "local") + " (id Int32) ENGINE = MergeTree ORDER BY id");
        ch.execute("CREATE TABLE " + ClickHouseSql.table(atomic, "target") + " AS " + ClickHouseSql.table(atomic, "local")
            + " ENGINE = Distributed(" + ClickHouseSql.literal(TestEngines.PUBLICATION_CLUSTER) + ", "
            + ClickHouseSql.literal(atomic) + ", 'local')");
        List<Blocker> b = MemberAdmissionChecks.check(M, ch, atomic, "target", Mode.EXTERNAL, WINDOW);
        assertEquals(List.of(BlockerCode.PUBLICATION_DISTRIBUTED_TARGET.code()), codes(b));
        assertEquals(M.toString(), b.get(0).subject());
        assertFalse(b.get(0).message().contains("ch1"));
    }

    @Test
    void engineFamiliesPerMode() {
        assertTrue(MemberAdmissionChecks.targetEngine(M, "ReplacingMergeTree", Mode.EXTERNAL).isEmpty());
        assertTrue(MemberAdmissionChecks.targetEngine(M, "ReplicatedMergeTree", Mode.INTERNAL).isEmpty());
        assertTrue(MemberAdmissionChecks.targetEngine(M, "ReplicatedReplacingMergeTree", Mode.INTERNAL).isEmpty());
        assertEquals(BlockerCode.PUBLICATION_ENGINE_MODE_MISMATCH.code(),
            MemberAdmissionChecks.targetEngine(M, "ReplicatedMergeTree", Mode.EXTERNAL).orElseThrow().code());
        assertEquals(BlockerCode.PUBLICATION_ENGINE_MODE_MISMATCH.code(),
            MemberAdmissionChecks.targetEngine(M, "Log", Mode.EXTERNAL).orElseThrow().code());
    }

    @Test
    void grantsFromShowGrantsLines() {
        assertTrue(MemberAdmissionChecks.grants(M, "analytics",
            List.of("GRANT ALL ON *.* TO dpone WITH GRANT OPTION")).isEmpty());
        assertTrue(MemberAdmissionChecks.grants(M, "analytics",
            List.of("GRANT SELECT, INSERT, CREATE, DROP ON analytics.* TO dpone")).isEmpty());
        Blocker b = MemberAdmissionChecks.grants(M, "analytics",
            List.of("GRANT SELECT, INSERT ON analytics.* TO dpone", "GRANT CREATE TABLE ON other.* TO dpone"))
            .orElseThrow();
        assertEquals(BlockerCode.PUBLICATION_GRANTS_MISSING.code(), b.code());
        assertEquals(List.of("CREATE TABLE", "DROP TABLE"), b.details().get("missing"));
        assertTrue(MemberAdmissionChecks.grants(M, "analytics", List.of("GRANT SELECT ON analytics.* TO dpone",
            "GRANT publisher TO dpone")).isEmpty(), "role grants cannot be expanded: not judged");
        assertTrue(MemberAdmissionChecks.grants(M, "analytics", List.of()).isEmpty());
    }

    @Test
    void queueRetentionAgainstTheRecoveryWindow() {
        assertTrue(MemberAdmissionChecks.retention(M, "604800", WINDOW).isEmpty());
        assertTrue(MemberAdmissionChecks.retention(M, null, WINDOW).isEmpty(), "the default is a week");
        Blocker b = MemberAdmissionChecks.retention(M, "3600", WINDOW).orElseThrow();
        assertEquals(BlockerCode.PUBLICATION_DDL_RETENTION_TOO_SHORT.code(), b.code());
        assertEquals(3600L, b.details().get("task_max_lifetime_seconds"));
        assertEquals(BlockerCode.PUBLICATION_DDL_RETENTION_TOO_SHORT.code(),
            MemberAdmissionChecks.retention(M, "604800", Duration.ofDays(8)).orElseThrow().code());
    }

    @Test
    void queueSettingsAreTheServersAndTheStrictestMemberWins() {
        assertEquals(new DdlQueueSettings(TestEngines.TASK_MAX_LIFETIME_SECONDS, TestEngines.MAX_TASKS_IN_QUEUE, true),
            DdlQueueSettings.read(M, ch), "the engine's configured values, not ClickHouse's defaults");
        assertEquals(DdlQueueSettings.DEFAULTS, DdlQueueSettings.fromRows(List.of()),
            "a server that does not list them runs with ClickHouse's defaults");
        assertFalse(DdlQueueSettings.DEFAULTS.listed());
        assertEquals(new DdlQueueSettings(3600, 1000, false), DdlQueueSettings.fromRows(
            List.of(List.of("distributed_ddl.task_max_lifetime", "3600"))));
        assertEquals(new DdlQueueSettings(3600, 50, false), DdlQueueSettings.strictest(List.of(
            new DdlQueueSettings(3600, 1000, true), new DdlQueueSettings(7200, 50, false))));
        assertEquals(BlockerCode.PUBLICATION_DDL_RETENTION_TOO_SHORT.code(), codes(MemberAdmissionChecks.check(M, ch,
            "absent_db_y", "t", Mode.EXTERNAL, WINDOW, new DdlQueueSettings(3600, 1000, true))).get(1),
            "the retention judged is the one read");
    }
}
