package io.dpone.publication.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.publication.PublicationAuthorityContract;
import io.dpone.publication.protocol.FenceRecord;
import io.dpone.publication.protocol.PublicationAuthority;
import io.dpone.testing.TestEngines;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The KeeperMap authority on the embedded engine with an embedded ZooKeeper (strict mode works there). */
@io.dpone.testing.EngineTest
class KeeperMapAuthorityTest extends PublicationAuthorityContract {
    static ClickHouseEndpoint ch;
    static KeeperMapAuthority authority;
    static String database;

    @BeforeAll
    static void open() {
        TestEngines.zooKeeper();
        ch = TestEngines.clickhouse();
        database = TestEngines.newDatabase("dpone_authority");
        authority = KeeperMapAuthority.open(ch, database, "publication_fence", "/dpone/" + database + "/fence");
    }

    @AfterAll
    static void close() {
        ch.close();
    }

    @Override
    protected PublicationAuthority authority() {
        return authority;
    }

    @Test
    void reopeningFindsTheSameRecords() {
        String key = newKey();
        authority.create(key, FenceRecord.fenced("op-reopen"));
        KeeperMapAuthority again = KeeperMapAuthority.open(ch, database, "publication_fence",
            "/dpone/" + database + "/fence");
        assertEquals("op-reopen", again.read(key).orElseThrow().record().operationId());
    }

    @Test
    void anUndecodableRecordIsATypedBlocker() {
        String key = newKey();
        ch.execute("INSERT INTO " + ClickHouseSql.table(database, "publication_fence")
            + " VALUES (" + ClickHouseSql.literal(key) + ", 'not json', 1)");
        DponeException e = assertThrows(DponeException.class, () -> authority.read(key));
        assertEquals(BlockerCode.PUBLICATION_AUTHORITY_RECORD_INVALID.code(), e.blockers().get(0).code());
    }
}
