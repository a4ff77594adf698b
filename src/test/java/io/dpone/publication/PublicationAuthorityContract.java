package io.dpone.publication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.publication.protocol.FenceRecord;
import io.dpone.publication.protocol.Phase;
import io.dpone.publication.protocol.PublicationAuthority;
import io.dpone.publication.protocol.PublicationAuthority.Fence;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** What every {@link PublicationAuthority} guarantees. */
public abstract class PublicationAuthorityContract {
    private static final AtomicInteger KEYS = new AtomicInteger();

    protected abstract PublicationAuthority authority();

    protected String newKey() {
        return "analytics.target_table." + getClass().getSimpleName().toLowerCase() + "-" + KEYS.incrementAndGet()
            + "-" + System.nanoTime();
    }

    static FenceRecord full(String operation) {
        MemberId a = MemberId.of("analytics_cluster", "ch1", 9000);
        MemberId b = MemberId.of("analytics_cluster", "ch2", 9000);
        return FenceRecord.fenced(operation)
            .sealed("g-" + operation, "ab".repeat(32), 12345)
            .ready(Map.of(a, new FenceRecord.MemberRecord(UUID.randomUUID(), UUID.randomUUID()),
                b, new FenceRecord.MemberRecord(null, UUID.randomUUID())))
            .ddlRecorded("dpone-ddl-" + operation, Instant.parse("2026-01-02T03:04:05.123456Z"));
    }

    @Test
    void createOnceThenSecondCreateIsRefused() {
        PublicationAuthority auth = authority();
        String key = newKey();
        assertTrue(auth.read(key).isEmpty());
        assertTrue(auth.create(key, FenceRecord.fenced("op-a")));
        assertFalse(auth.create(key, FenceRecord.fenced("op-b")));
        Fence f = auth.read(key).orElseThrow();
        assertEquals("op-a", f.record().operationId());
        assertEquals(Phase.FENCED, f.record().phase());
    }

    @Test
    void replaceIsVersionChecked() {
        PublicationAuthority auth = authority();
        String key = newKey();
        assertFalse(auth.replace(key, 1, FenceRecord.fenced("op-a")), "nothing to replace");
        assertTrue(auth.create(key, FenceRecord.fenced("op-a")));
        long v1 = auth.read(key).orElseThrow().version();
        assertEquals(1, v1, "version 1 after create");
        FenceRecord sealed = FenceRecord.fenced("op-a").sealed("g-1", "cd".repeat(32), 7);
        assertTrue(auth.replace(key, v1, sealed));
        Fence f2 = auth.read(key).orElseThrow();
        assertEquals(sealed, f2.record());
        assertEquals(v1 + 1, f2.version(), "exactly one version on per replace");
        assertFalse(auth.replace(key, v1, sealed.withPhase(Phase.READY)), "stale version");
        assertEquals(sealed, auth.read(key).orElseThrow().record());
        assertTrue(auth.replace(key, f2.version(), sealed.withPhase(Phase.READY)));
        assertEquals(Phase.READY, auth.read(key).orElseThrow().record().phase());
    }

    @Test
    void everyFieldRoundTrips() {
        PublicationAuthority auth = authority();
        String key = newKey();
        FenceRecord record = full("op-full");
        assertTrue(auth.create(key, record));
        assertEquals(record, auth.read(key).orElseThrow().record());
        FenceRecord committed = record.withPhase(Phase.COMMITTED);
        assertTrue(auth.replace(key, auth.read(key).orElseThrow().version(), committed));
        assertEquals(committed, auth.read(key).orElseThrow().record());
    }

    @Test
    void concurrentCreatorsExactlyOneWins() throws Exception {
        PublicationAuthority auth = authority();
        String key = newKey();
        int n = 4;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String op = "op-" + i;
                Callable<Boolean> c = () -> {
                    start.await();
                    return auth.create(key, FenceRecord.fenced(op));
                };
                results.add(pool.submit(c));
            }
            start.countDown();
            int winners = 0;
            String winner = null;
            for (int i = 0; i < n; i++) {
                if (results.get(i).get(60, TimeUnit.SECONDS)) {
                    winners++;
                    winner = "op-" + i;
                }
            }
            assertEquals(1, winners);
            assertEquals(winner, auth.read(key).orElseThrow().record().operationId());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void concurrentReplacersOnOneVersionExactlyOneWins() throws Exception {
        PublicationAuthority auth = authority();
        String key = newKey();
        assertTrue(auth.create(key, FenceRecord.fenced("op-a")));
        long v = auth.read(key).orElseThrow().version();
        int n = 4;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                FenceRecord next = FenceRecord.fenced("op-a").sealed("g-" + i, "ef".repeat(32), i);
                results.add(pool.submit(() -> {
                    start.await();
                    return auth.replace(key, v, next);
                }));
            }
            start.countDown();
            int winners = 0;
            for (Future<Boolean> r : results) {
                winners += r.get(60, TimeUnit.SECONDS) ? 1 : 0;
            }
            assertEquals(1, winners);
        } finally {
            pool.shutdownNow();
        }
    }
}
