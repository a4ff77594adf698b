package io.dpone.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.quality.TargetStats;
import io.dpone.testing.TestEngines;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** On the embedded engine: part-wise sums equal one whole-table read, whatever happens to the parts. */
@io.dpone.testing.EngineTest
class PartwiseTableStatsTest {
    private static final List<String> COLUMNS = List.of("id", "amount", "note");
    private static final List<String> HASHED = List.of("amount", "note");
    private static final List<String> DISTINCT = List.of("id", "note");
    private ClickHouseEndpoint ch;
    private String db;

    @BeforeEach
    void open() {
        ch = TestEngines.clickhouse();
        db = TestEngines.newAtomicDatabase(ch, "partwise");
        ch.execute("CREATE TABLE " + ClickHouseSql.table(db, "t") + " (id Int64, amount Nullable(Decimal(18, 2)), "
            + "note Nullable(String), " + MetadataColumns.ddl() + ") ENGINE = MergeTree ORDER BY (id)"); // as staging
    }

    @AfterEach
    void close() {
        ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        ch.close();
    }

    private void insert(int from, int count) {
        ch.execute("INSERT INTO " + ClickHouseSql.table(db, "t") + " SELECT number, "
            + "if(number % 7 = 0, NULL, toDecimal64(number / 100, 2)), if(number % 5 = 0, NULL, toString(number % 13)), "
            + MetadataColumns.values("run-1", "load-1", Instant.parse("2026-12-01T00:00:00Z"))
            + " FROM numbers(" + from + ", " + count + ")");
    }

    private PartwiseTableStats start() {
        return PartwiseTableStats.start(ch, db, "t", COLUMNS, HASHED, "run-1", 1, DISTINCT);
    }

    private TargetStats wholeTable() {
        return TableStatsReader.read(ch, db, "t", COLUMNS, HASHED, "run-1", 1, DISTINCT);
    }

    private long parts() {
        return Long.parseLong(ch.query("SELECT count() FROM system.parts WHERE database = " + ClickHouseSql.literal(db)
            + " AND table = 't' AND active").get(0).get(0));
    }

    @Test
    void sumsOverPartsEqualTheWholeTableRead() {
        PartwiseTableStats stats = start();
        for (int i = 0; i < 4; i++) {
            insert(i * 1000, 1000);
            stats.countNewParts();
        }
        insert(4000, 500); // the last chunk: counted by finish
        TargetStats partwise = stats.finish(DISTINCT);
        TargetStats whole = wholeTable();
        assertEquals(whole, partwise);
        assertEquals(4500, partwise.rows());
        assertEquals(4500, partwise.distinctCounts().get("id"));
        assertTrue(stats.keyDistinctFromBatches(), "disjoint key ranges: the key's distinct count is summed");
        assertTrue(partwise.nullCounts().get("amount") > 0);
    }

    @Test
    void eachNewPartIsReadOnceForItsSumsAndItsKeyRange() {
        List<String> partReads = new java.util.ArrayList<>();
        ClickHouseEndpoint recording = new ClickHouseEndpoint() {
            @Override
            public void execute(String sql) {
                ch.execute(sql);
            }

            @Override
            public List<List<String>> query(String sql) {
                if (sql.contains(" WHERE _part IN (")) {
                    partReads.add(sql);
                }
                return ch.query(sql);
            }

            @Override
            public void insertFile(InsertFile insert) {
                ch.insertFile(insert);
            }

            @Override
            public String kind() {
                return ch.kind();
            }

            @Override
            public void close() {
            }
        };
        PartwiseTableStats stats = PartwiseTableStats.start(recording, db, "t", COLUMNS, HASHED, "run-1", 1, DISTINCT);
        for (int i = 0; i < 3; i++) {
            insert(i * 1000, 1000);
            stats.countNewParts();
        }
        assertEquals(3, partReads.size(), "one statement per new part: " + partReads);
        assertTrue(partReads.stream().allMatch(q -> q.contains("min(`id`), max(`id`), uniqExact(`id`)")
            && q.contains("countIf(`note` IS NULL)")), "the key range is read with the sums: " + partReads);
        TargetStats partwise = stats.finish(DISTINCT);
        assertTrue(stats.keyDistinctFromBatches());
        assertEquals(wholeTable(), partwise);
        assertEquals(3000, partwise.distinctCounts().get("id"));
    }

    @Test
    void aTableWhoseSortKeyIsNoDistinctColumnReadsNoKeyRange() {
        List<String> distinct = List.of("note");
        PartwiseTableStats stats = PartwiseTableStats.start(ch, db, "t", COLUMNS, HASHED, "run-1", 1, distinct);
        insert(0, 1000);
        stats.countNewParts();
        insert(1000, 1000);
        assertFalse(stats.keyDistinctFromBatches());
        assertEquals(TableStatsReader.read(ch, db, "t", COLUMNS, HASHED, "run-1", 1, distinct), stats.finish(distinct));
    }

    @Test
    void overlappingKeyRangesCountTheKeyOverTheWholeTable() {
        PartwiseTableStats stats = start();
        insert(0, 1000);
        stats.countNewParts();
        insert(500, 1000); // ids 500-999 twice: a sum of the batches would say 2000
        TargetStats partwise = stats.finish(DISTINCT);
        assertFalse(stats.keyDistinctFromBatches());
        assertEquals(1500, partwise.distinctCounts().get("id"));
        assertEquals(wholeTable(), partwise);
    }

    @Test
    void aBatchOfManyPartsIsCountedOverTheWholeTableNotAsOneBatch() {
        PartwiseTableStats stats = start();
        insert(0, 1000);
        insert(1000, 1000);
        insert(2000, 1000); // three parts before one count: as a one-statement pull of the whole table lands
        stats.countNewParts();
        TargetStats partwise = stats.finish(DISTINCT);
        assertFalse(stats.keyDistinctFromBatches(), "no exact distinct count held over a many-part batch");
        assertEquals(3000, partwise.distinctCounts().get("id"));
        assertEquals(wholeTable(), partwise);
    }

    @Test
    void batchesTouchingAtOneKeyAreNotDisjoint() {
        PartwiseTableStats stats = start();
        insert(0, 1000);
        stats.countNewParts();
        insert(999, 1000); // id 999 in both
        assertEquals(1999, stats.finish(DISTINCT).distinctCounts().get("id"));
        assertFalse(stats.keyDistinctFromBatches());
    }

    @Test
    void mergesAreStoppedWhileTrackingAndRunAgainAfterFinish() {
        PartwiseTableStats stats = start();
        insert(0, 100);
        stats.countNewParts();
        insert(100, 100);
        stats.countNewParts();
        assertThrows(ClickHouseQueryException.class,
            () -> ch.execute("OPTIMIZE TABLE " + ClickHouseSql.table(db, "t") + " FINAL"), "merging is cancelled");
        assertEquals(2, parts(), "merges are stopped while the parts are being counted");
        stats.finish(DISTINCT);
        ch.execute("OPTIMIZE TABLE " + ClickHouseSql.table(db, "t") + " FINAL");
        assertEquals(1, parts(), "after finish the table merges again");
    }

    @Test
    void aCountedPartMergedAwayFallsBackToTheWholeTableRead() {
        PartwiseTableStats stats = start();
        insert(0, 1000);
        stats.countNewParts();
        insert(1000, 1000);
        stats.countNewParts();
        // someone else lets merges run and merges the counted parts into a new one
        ch.execute("SYSTEM START MERGES " + ClickHouseSql.table(db, "t"));
        ch.execute("OPTIMIZE TABLE " + ClickHouseSql.table(db, "t") + " FINAL");
        insert(2000, 10);
        assertEquals(wholeTable(), stats.finish(DISTINCT));
    }

    @Test
    void rowsChangedAfterTheirPartWasCountedAreSeen() {
        PartwiseTableStats stats = start();
        insert(0, 1000);
        stats.countNewParts();
        // a mutation (merges let run again by someone; a stopped table cannot mutate) rewrites the counted part
        // under a new name: the part sets differ, the whole table is read
        ch.execute("SYSTEM START MERGES " + ClickHouseSql.table(db, "t"));
        ch.execute("ALTER TABLE " + ClickHouseSql.table(db, "t") + " UPDATE note = 'changed' WHERE id = 3 "
            + "SETTINGS mutations_sync = 1");
        TargetStats partwise = stats.finish(DISTINCT);
        assertEquals(wholeTable(), partwise);
        insert(5000, 1); // a different table than before the update, so the comparison above was not vacuous
        assertNotEquals(partwise, wholeTable());
    }

    @Test
    void distinctCountsOfARepeatingSortKeyReadInKeyOrderEqualUniqExact() {
        ch.execute("CREATE TABLE " + ClickHouseSql.table(db, "g") + " (g Int32, s String) ENGINE = MergeTree ORDER BY g");
        ch.execute("SYSTEM STOP MERGES " + ClickHouseSql.table(db, "g"));
        for (int i = 0; i < 3; i++) { // overlapping key ranges in three parts
            ch.execute("INSERT INTO " + ClickHouseSql.table(db, "g") + " SELECT number % 777, toString(number % 5) "
                + "FROM numbers(" + (i * 500) + ", 3000)");
        }
        assertEquals(java.util.Map.of("g", 777L, "s", 5L),
            TableStatsReader.distinctCounts(ch, db, "g", List.of("g", "s")));
    }

    @Test
    void tooManyPartsStopsTrackingAndStillGivesTheWholeTableStats() {
        PartwiseTableStats stats = start();
        for (int i = 0; i <= PartwiseTableStats.MAX_PARTS; i++) {
            insert(i * 2, 2);
        }
        stats.countNewParts();
        assertFalse(stats.tracking());
        assertEquals(wholeTable(), stats.finish(DISTINCT));
    }
}
