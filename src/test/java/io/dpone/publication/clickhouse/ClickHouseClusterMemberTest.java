package io.dpone.publication.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.TableAdmin;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.publication.MemberId;
import io.dpone.publication.artifact.ArtifactFixtures;
import io.dpone.publication.artifact.FileArtifactStore;
import io.dpone.publication.artifact.GenerationMarker;
import io.dpone.publication.artifact.SealedArtifact;
import io.dpone.publication.artifact.TableDefinition;
import io.dpone.publication.protocol.MemberUnavailableException;
import io.dpone.publication.protocol.TableState;
import io.dpone.source.JdbcSourceReader;
import io.dpone.testing.TestEngines;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every member operation as real SQL on the embedded engine. */
@io.dpone.testing.EngineTest
class ClickHouseClusterMemberTest {
    static final MemberId ID = MemberId.of("analytics_cluster_external", "ch1", 9000);
    static ClickHouseEndpoint ch;
    static FileArtifactStore store;
    static ClickHouseClusterMember member;
    static SealedArtifact artifact;
    static String sourceUrl;

    @TempDir
    static Path dir;

    @BeforeAll
    static void setUp() throws Exception {
        ch = TestEngines.clickhouse();
        store = new FileArtifactStore(dir.resolve("artifacts"));
        member = new ClickHouseClusterMember(ID, ch, store);
        sourceUrl = ArtifactFixtures.source(200);
        try (JdbcSourceReader reader = ArtifactFixtures.reader(sourceUrl)) {
            artifact = store.seal("op-member", ArtifactFixtures.extraction(reader, 0, 0));
        }
    }

    @AfterAll
    static void tearDown() {
        ch.close();
    }

    static String database() {
        String db = TestEngines.newDatabase("pub_member");
        new TableAdmin(ch).ensureAtomicDatabase(db, "test");
        return db;
    }

    static TableDefinition definition(String db, String name, GenerationMarker marker) {
        return new TableDefinition(db, name, artifact.columns(), "MergeTree", List.of("id"), marker);
    }

    @Test
    void createWithCommentCarriesTheMarker() {
        String db = database();
        GenerationMarker marker = new GenerationMarker("g-0123abcd", "op-member");
        member.create(definition(db, "candidate", marker));
        TableState state = member.table(db, "candidate").orElseThrow();
        assertEquals(marker, state.marker());
        assertEquals("MergeTree", state.engine());
        assertEquals(0, state.rows());
        assertTrue(member.table(db, "absent").isEmpty());
        DponeException exists = assertThrows(DponeException.class,
            () -> member.create(definition(db, "candidate", marker)));
        assertEquals(BlockerCode.PUBLICATION_MEMBER_STATEMENT_FAILED.code(), exists.blockers().get(0).code());
        assertEquals(ID.toString(), exists.blockers().get(0).subject());
    }

    @Test
    void loadWithTheSameTokenTwiceStoresTheRowsOnce() throws Exception {
        String db = database();
        member.create(definition(db, "candidate", new GenerationMarker("g-1", "op-member")));
        member.load(db, "candidate", artifact, "op-member-g-1-" + ID);
        member.load(db, "candidate", artifact, "op-member-g-1-" + ID);
        assertEquals(200, member.table(db, "candidate").orElseThrow().rows());
        member.load(db, "candidate", artifact, "another-token");
        assertEquals(400, member.table(db, "candidate").orElseThrow().rows(), "a new token is a new insert");
    }

    @Test
    void theSealedParquetLoadsIdenticalRows() throws Exception {
        String db = database();
        member.create(definition(db, "candidate", new GenerationMarker("g-2", "op-member")));
        member.load(db, "candidate", artifact, "t-rows");
        List<String> expected = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(sourceUrl, "sa", ""); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT id, customer, amount, placed, flag FROM dbo.orders ORDER BY id")) {
            while (rs.next()) {
                java.sql.Timestamp ts = rs.getTimestamp(4);
                expected.add(rs.getInt(1) + "|" + rs.getString(2) + "|"
                    + rs.getBigDecimal(3).stripTrailingZeros().toPlainString() + "|"
                    + (ts == null ? null : ts.toLocalDateTime().toString().replace('T', ' ').replaceAll("0+$", ""))
                    + "|" + rs.getBoolean(5));
            }
        }
        List<String> actual = ch.query("SELECT id, customer, toString(amount), toString(placed), flag FROM "
            + ClickHouseSql.table(db, "candidate") + " ORDER BY id").stream()
            .map(r -> r.get(0) + "|" + r.get(1) + "|" + r.get(2) + "|" + r.get(3) + "|" + r.get(4)).toList();
        assertEquals(expected.size(), actual.size());
        assertEquals(expected, actual);
        assertEquals(List.of(List.of("Nullable(DateTime64(7, 'UTC'))")), ch.query("SELECT type FROM system.columns"
            + " WHERE database = " + ClickHouseSql.literal(db) + " AND table = 'candidate' AND name = 'placed'"));
    }

    @Test
    void exchangeSwapsUuidsAndDropExactNeedsTheUuid() {
        String db = database();
        member.create(definition(db, "target", new GenerationMarker("g-old", "op-old")));
        member.create(definition(db, "candidate", new GenerationMarker("g-new", "op-member")));
        UUID target = member.table(db, "target").orElseThrow().uuid();
        UUID candidate = member.table(db, "candidate").orElseThrow().uuid();
        assertNotEquals(target, candidate);
        member.exchangeLocal(db, "target", "candidate", "q-exchange-1");
        assertEquals(candidate, member.table(db, "target").orElseThrow().uuid());
        assertEquals(target, member.table(db, "candidate").orElseThrow().uuid());
        assertEquals("g-new", member.table(db, "target").orElseThrow().marker().generationId());

        assertFalse(member.dropExact(db, "candidate", candidate), "wrong UUID: refused");
        assertTrue(member.table(db, "candidate").isPresent());
        assertFalse(member.dropExact(db, "absent", candidate));
        assertTrue(member.dropExact(db, "candidate", target));
        assertTrue(member.table(db, "candidate").isEmpty());
        assertTrue(member.table(db, "target").isPresent());
    }

    @Test
    void engineNamesAreValidated() {
        String db = database();
        TableDefinition bad = new TableDefinition(db, "t", artifact.columns(), "Memory", List.of("id"), null);
        DponeException e = assertThrows(DponeException.class, () -> member.create(bad));
        assertEquals(BlockerCode.PUBLICATION_ENGINE_INVALID.code(), e.blockers().get(0).code());
        TableDefinition injected = new TableDefinition(db, "t", artifact.columns(), "MergeTree() --", List.of("id"),
            null);
        assertThrows(DponeException.class, () -> member.create(injected));
    }

    @Test
    void aClosedEndpointIsAnUnavailableMember() {
        ClickHouseEndpoint closed = TestEngines.clickhouse();
        closed.close();
        ClickHouseClusterMember gone = new ClickHouseClusterMember(ID, closed, store);
        MemberUnavailableException e = assertThrows(MemberUnavailableException.class, () -> gone.table("d", "t"));
        assertEquals(ID, e.member());
        assertFalse(e.getMessage().contains("ch1"));
    }
}
