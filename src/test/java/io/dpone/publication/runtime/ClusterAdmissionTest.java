package io.dpone.publication.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseQueryException;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.publication.MemberId;
import io.dpone.publication.admission.AdvertisedMember;
import io.dpone.publication.admission.EndpointResolver;
import io.dpone.publication.protocol.PublicationMode;
import io.dpone.publication.protocol.PublicationTarget;
import io.dpone.report.Json;
import io.dpone.testing.TestEngines;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link ClusterAdmission#admit} on the embedded engine, whose config defines the publication cluster (one shard,
 * two members, internal_replication=false), three clusters of refused shapes, and non-default distributed-DDL
 * queue settings. Members are the same engine behind an endpoint that can answer one query differently, the way a
 * member with its own configuration would.
 */
@io.dpone.testing.EngineTest
class ClusterAdmissionTest {
    static final Duration WINDOW = Duration.ofDays(1);
    static final String SECRET = "planted-secret-host.example.internal";
    static String database;

    @BeforeAll
    static void database() {
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            database = TestEngines.newAtomicDatabase(ch, "admission");
        }
    }

    static PublicationTarget target(String cluster, PublicationMode mode) {
        return new PublicationTarget(mode, cluster, database, "items", "MergeTree", List.of("id"), null);
    }

    static List<String> codes(DponeException e) {
        return e.blockers().stream().map(Blocker::code).toList();
    }

    /** Opens the embedded engine for every member; the member advertised as 127.0.0.2 gets {@code second}. */
    static EndpointResolver resolver(AtomicInteger opened, UnaryOperator<ClickHouseEndpoint> second) {
        return new EndpointResolver() {
            @Override
            public ClickHouseEndpoint open(AdvertisedMember member) {
                opened.incrementAndGet();
                ClickHouseEndpoint e = TestEngines.clickhouse();
                return member.host().equals("127.0.0.2") ? second.apply(e) : e;
            }

            @Override
            public String resolvedIdentity(AdvertisedMember member) {
                return "r-test-" + member.replicaNum();
            }
        };
    }

    static MemberId second() {
        return MemberId.of(TestEngines.PUBLICATION_CLUSTER, "127.0.0.2", 9000);
    }

    static DponeException refused(String cluster, PublicationMode mode, UnaryOperator<ClickHouseEndpoint> second) {
        try (ClickHouseEndpoint entry = TestEngines.clickhouse()) {
            return assertThrows(DponeException.class,
                () -> ClusterAdmission.admit(entry, resolver(new AtomicInteger(), second), target(cluster, mode), WINDOW));
        }
    }

    static void noSecretIn(DponeException e) throws Exception {
        String json = Json.MAPPER.writeValueAsString(e.blockers());
        assertFalse(json.contains(SECRET), json);
        assertFalse(json.contains("127.0.0."), json);
    }

    @Test
    void eachShapeBlockerComesFromTheRealInventoryBeforeAnyMemberIsOpened() {
        AtomicInteger opened = new AtomicInteger();
        try (ClickHouseEndpoint entry = TestEngines.clickhouse()) {
            for (var c : List.of(
                    List.of(TestEngines.TWO_SHARDS_CLUSTER, List.of("publication.cluster_not_one_shard")),
                    List.of(TestEngines.ONE_MEMBER_CLUSTER, List.of("publication.cluster_too_few_members")),
                    List.of(TestEngines.MIXED_FLAGS_CLUSTER, List.of("publication.cluster_not_one_shard",
                        "publication.internal_replication_mixed")))) {
                DponeException e = assertThrows(DponeException.class, () -> ClusterAdmission.admit(entry,
                    resolver(opened, UnaryOperator.identity()), target((String) c.get(0), PublicationMode.EXTERNAL),
                    WINDOW));
                assertEquals(c.get(1), codes(e), c.get(0).toString());
            }
            DponeException mismatch = assertThrows(DponeException.class, () -> ClusterAdmission.admit(entry,
                resolver(opened, UnaryOperator.identity()), target(TestEngines.PUBLICATION_CLUSTER,
                    PublicationMode.INTERNAL), WINDOW));
            assertEquals(List.of("publication.internal_replication_mismatch"), codes(mismatch));
        }
        assertEquals(0, opened.get(), "a refused shape opens no member connection");
    }

    @Test
    void theAdmittedClusterCarriesTheQueueSettingsTheServersReport() {
        AtomicInteger opened = new AtomicInteger();
        try (ClickHouseEndpoint entry = TestEngines.clickhouse();
             ClusterAdmission.Admitted a = ClusterAdmission.admit(entry, resolver(opened, UnaryOperator.identity()),
                 target(TestEngines.PUBLICATION_CLUSTER, PublicationMode.EXTERNAL), WINDOW)) {
            assertEquals(2, a.inventory().members().size());
            assertEquals(TestEngines.TASK_MAX_LIFETIME_SECONDS, a.ddlQueue().taskMaxLifetimeSeconds(),
                "the config's value, not ClickHouse's default week");
            assertEquals(TestEngines.MAX_TASKS_IN_QUEUE, a.ddlQueue().maxTasksInQueue());
            assertTrue(a.ddlQueue().listed());
            io.dpone.publication.protocol.PublicationSettings s =
                ClusterPublicationJob.settings(a.ddlQueue(), WINDOW, Duration.ofMinutes(3));
            assertEquals(Duration.ofSeconds(TestEngines.TASK_MAX_LIFETIME_SECONDS), s.ddlQueueRetention(),
                "the reconciler's retention is the servers', not a constant");
            assertEquals(TestEngines.MAX_TASKS_IN_QUEUE, s.ddlQueueMaxTasks());
            assertEquals(WINDOW, s.maxRecoveryWindow());
        }
        // one member keeps entries for 25 hours: the cluster keeps them no longer than that member
        try (ClickHouseEndpoint entry = TestEngines.clickhouse();
             ClusterAdmission.Admitted a = ClusterAdmission.admit(entry, resolver(opened, e -> new Answering(e,
                 "system.server_settings", List.of(List.of("distributed_ddl.task_max_lifetime", "90000"),
                     List.of("distributed_ddl.max_tasks_in_queue", "5000")))),
                 target(TestEngines.PUBLICATION_CLUSTER, PublicationMode.EXTERNAL), WINDOW)) {
            assertEquals(90000, a.ddlQueue().taskMaxLifetimeSeconds());
            assertEquals(TestEngines.MAX_TASKS_IN_QUEUE, a.ddlQueue().maxTasksInQueue());
        }
    }

    @Test
    void aMemberThatDefinesTheClusterDifferentlyBlocksByItsOpaqueId() throws Exception {
        // the second member's own system.clusters: both members, but on two shards
        DponeException e = refused(TestEngines.PUBLICATION_CLUSTER, PublicationMode.EXTERNAL,
            ch -> new SeesCluster(ch, TestEngines.TWO_SHARDS_CLUSTER));
        assertEquals(List.of("publication.inventory_views_differ"), codes(e));
        Blocker b = e.blockers().get(0);
        assertEquals(second().value(), b.subject());
        assertEquals(List.of(second().value()), b.details().get("differently_placed_members"));
        noSecretIn(e);
        // ... only itself
        DponeException fewer = refused(TestEngines.PUBLICATION_CLUSTER, PublicationMode.EXTERNAL,
            ch -> new SeesCluster(ch, TestEngines.ONE_MEMBER_CLUSTER));
        assertEquals(List.of("publication.inventory_views_differ"), codes(fewer));
        assertEquals(List.of(second().value()), fewer.blockers().get(0).details().get("missing_members"));
        // ... no row at all
        DponeException none = refused(TestEngines.PUBLICATION_CLUSTER, PublicationMode.EXTERNAL,
            ch -> new SeesCluster(ch, "no_such_cluster"));
        assertEquals(List.of("publication.inventory_incomplete"), codes(none));
        assertEquals(second().value(), none.blockers().get(0).subject());
    }

    @Test
    void aRefusedAdmissionQueryIsATypedBlockerWithoutTheServersMessage() throws Exception {
        String denied = "Code: 497. DB::Exception: dpone@" + SECRET + ": Not enough privileges. To execute this"
            + " query, it's necessary to have the grant SELECT ON system.server_settings. (ACCESS_DENIED) (version 24.8)";
        for (String query : List.of("system.server_settings", "system.clusters", "system.databases", "system.tables")) {
            DponeException e = refused(TestEngines.PUBLICATION_CLUSTER, PublicationMode.EXTERNAL,
                ch -> new Answering(ch, query, new ClickHouseQueryException(denied)));
            assertEquals(List.of(BlockerCode.PUBLICATION_ADMISSION_QUERY_FAILED.code()), codes(e), query);
            Blocker b = e.blockers().get(0);
            assertEquals(second().value(), b.subject());
            assertEquals(query, b.details().get("query"));
            assertEquals(497, b.details().get("clickhouse_code"));
            assertEquals("ACCESS_DENIED", b.details().get("clickhouse_error"));
            noSecretIn(e);
        }
        DponeException unparsable = refused(TestEngines.PUBLICATION_CLUSTER, PublicationMode.EXTERNAL,
            ch -> new Answering(ch, "system.server_settings",
                List.of(List.of("distributed_ddl.task_max_lifetime", "a week"))));
        assertEquals(List.of(BlockerCode.PUBLICATION_ADMISSION_QUERY_FAILED.code()), codes(unparsable));
        assertEquals("unexpected_answer", unparsable.blockers().get(0).details().get("clickhouse_error"));
        DponeException closed = refused(TestEngines.PUBLICATION_CLUSTER, PublicationMode.EXTERNAL,
            ch -> new Answering(ch, "system.databases", new IllegalStateException("endpoint closed")));
        assertEquals(List.of(BlockerCode.PUBLICATION_MEMBER_UNREACHABLE.code()), codes(closed));
        try (ClickHouseEndpoint entry = new Answering(TestEngines.clickhouse(), "system.clusters",
                new ClickHouseQueryException(denied))) {
            DponeException e = assertThrows(DponeException.class, () -> ClusterAdmission.admit(entry,
                resolver(new AtomicInteger(), UnaryOperator.identity()),
                target(TestEngines.PUBLICATION_CLUSTER, PublicationMode.EXTERNAL), WINDOW));
            assertEquals(List.of(BlockerCode.PUBLICATION_ADMISSION_QUERY_FAILED.code()), codes(e));
            assertEquals("sink.connection_ref", e.blockers().get(0).subject());
            noSecretIn(e);
        }
    }

    /** The engine, except that queries naming {@code table} get a fixed answer (rows, or a thrown exception). */
    static class Answering implements ClickHouseEndpoint {
        private final ClickHouseEndpoint engine;
        private final String table;
        private final Object answer;

        Answering(ClickHouseEndpoint engine, String table, Object answer) {
            this.engine = engine;
            this.table = table;
            this.answer = answer;
        }

        @Override
        public void execute(String sql) {
            engine.execute(sql);
        }

        @Override
        @SuppressWarnings("unchecked")
        public List<List<String>> query(String sql) {
            if (!sql.contains("FROM " + table + " ")) {
                return engine.query(sql);
            }
            if (answer instanceof RuntimeException e) {
                throw e;
            }
            return (List<List<String>>) answer;
        }

        @Override
        public void insertFile(InsertFile insert) {
            engine.insertFile(insert);
        }

        @Override
        public String kind() {
            return engine.kind();
        }

        @Override
        public void close() {
            engine.close();
        }
    }

    /** A member whose own configuration defines the publication cluster as {@code asCluster} does here. */
    static final class SeesCluster extends Answering {
        private final ClickHouseEndpoint engine;
        private final String asCluster;

        SeesCluster(ClickHouseEndpoint engine, String asCluster) {
            super(engine, "none", null);
            this.engine = engine;
            this.asCluster = asCluster;
        }

        @Override
        public List<List<String>> query(String sql) {
            if (sql.contains("FROM system.clusters")) {
                List<List<String>> rows = engine.query(sql.replace("'" + TestEngines.PUBLICATION_CLUSTER + "'",
                    "'" + asCluster + "'"));
                return rows;
            }
            return engine.query(sql);
        }
    }
}
