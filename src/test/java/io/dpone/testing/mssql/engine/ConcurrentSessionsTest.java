package io.dpone.testing.mssql.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Several sessions writing a CDC- and Change-Tracking-enabled table at once: one LSN and one version per commit. */
class ConcurrentSessionsTest extends TwinTestBase {
    @Test
    void everyCommitGetsItsOwnLsnAndVersion() throws Exception {
        batch("EXEC sys.sp_cdc_enable_db");
        batch("CREATE TABLE dbo.events (id int NOT NULL PRIMARY KEY, writer int)");
        batch("EXEC sys.sp_cdc_enable_table @source_schema = N'dbo', @source_name = N'events', @role_name = NULL");
        batch("ALTER DATABASE shop SET CHANGE_TRACKING = ON");
        batch("ALTER TABLE dbo.events ENABLE CHANGE_TRACKING");
        long v0 = ((Number) batch("SELECT CHANGE_TRACKING_CURRENT_VERSION()").single()).longValue();
        int writers = 4;
        int transactions = 15;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                done.add(pool.submit(() -> {
                    try (TwinSession s = backend.open("shop")) {
                        for (int t = 0; t < transactions; t++) {
                            int id = (writer * transactions + t) * 2;
                            exec(s, "BEGIN TRAN; INSERT INTO dbo.events VALUES (@P0, @P2); INSERT INTO dbo.events "
                                + "VALUES (@P1, @P2); COMMIT", "@P0 int,@P1 int,@P2 int", id, id + 1, writer);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        int commits = writers * transactions;
        assertEquals((long) commits, ((Number) batch("SELECT COUNT(DISTINCT [__$start_lsn]) FROM cdc.dbo_events_CT")
            .single()).longValue());
        assertEquals((long) commits * 2, ((Number) batch("SELECT COUNT(*) FROM cdc.dbo_events_CT").single()).longValue());
        // each LSN holds one transaction: both rows of one writer, command ids 1 and 2
        assertEquals(0L, ((Number) batch("SELECT COUNT(*) FROM (SELECT [__$start_lsn] FROM cdc.dbo_events_CT GROUP BY "
            + "[__$start_lsn] HAVING COUNT(DISTINCT writer) <> 1 OR MIN([__$command_id]) <> 1 OR MAX([__$command_id]) "
            + "<> 2) x").single()).longValue());
        assertEquals(v0 + commits, ((Number) batch("SELECT CHANGE_TRACKING_CURRENT_VERSION()").single()).longValue());
        assertEquals((long) commits * 2, (long) exec("SELECT COUNT(*) FROM CHANGETABLE(CHANGES dbo.events, @P0) AS c",
            "@P0 bigint", v0).rows().stream().mapToLong(r -> ((Number) r[0]).longValue()).sum());
    }
}
