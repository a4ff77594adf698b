package io.dpone.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.testing.TestEngines;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The target a run replaces stops merging on the embedded engine only, and merges again when resumed. */
@io.dpone.testing.EngineTest
class ReplacedGenerationMergesTest {
    private ClickHouseEndpoint ch;
    private String db;

    @BeforeEach
    void open() {
        ch = TestEngines.clickhouse();
        db = TestEngines.newAtomicDatabase(ch, "pause");
        ch.execute("CREATE TABLE " + ClickHouseSql.table(db, "t") + " (id Int64) ENGINE = MergeTree ORDER BY id");
        ch.execute("INSERT INTO " + ClickHouseSql.table(db, "t") + " VALUES (1)");
        ch.execute("INSERT INTO " + ClickHouseSql.table(db, "t") + " VALUES (2)");
    }

    @AfterEach
    void close() {
        ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        ch.close();
    }

    private String optimize() {
        ch.execute("OPTIMIZE TABLE " + ClickHouseSql.table(db, "t") + " FINAL");
        return ch.query("SELECT count() FROM system.parts WHERE database = " + ClickHouseSql.literal(db)
            + " AND table = 't' AND active").get(0).get(0);
    }

    @Test
    void pausedTableDoesNotMergeUntilResumed() {
        ReplacedGenerationMerges pause = ReplacedGenerationMerges.pause(ch, db, "t").orElseThrow();
        ClickHouseQueryException e = assertThrows(ClickHouseQueryException.class, this::optimize);
        assertTrue(e.getMessage().contains("ABORTED"), e.getMessage());
        pause.resume();
        pause.resume();
        assertEquals("1", optimize());
    }

    @Test
    void aMissingTableIsNotPausedAndAGoneOneResumesQuietly() {
        assertTrue(ReplacedGenerationMerges.pause(ch, db, "absent").isEmpty());
        ReplacedGenerationMerges pause = ReplacedGenerationMerges.pause(ch, db, "t").orElseThrow();
        ch.execute("DROP TABLE " + ClickHouseSql.table(db, "t"));
        pause.resume();
    }

    @Test
    void aServerTargetIsLeftAlone() {
        List<String> statements = new ArrayList<>();
        ClickHouseEndpoint server = new ClickHouseEndpoint() {
            @Override
            public void execute(String sql) {
                statements.add(sql);
            }

            @Override
            public List<List<String>> query(String sql) {
                statements.add(sql);
                return List.of(List.of("1"));
            }

            @Override
            public void insertFile(InsertFile insert) {
                throw new UnsupportedOperationException();
            }

            @Override
            public String kind() {
                return "server";
            }

            @Override
            public void close() {
            }
        };
        assertTrue(ReplacedGenerationMerges.pause(server, db, "t").isEmpty());
        assertEquals(List.of(), statements);
    }
}
