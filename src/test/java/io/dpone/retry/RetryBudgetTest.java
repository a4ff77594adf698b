package io.dpone.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.net.SocketException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RetryBudgetTest {
    private static final RetrySettings FAST = new RetrySettings(5, Duration.ofSeconds(30), Duration.ofMillis(1),
        Duration.ofMillis(4));

    @Test
    void aTransientFailureIsRetriedAndCountedPerKind() {
        RetryBudget budget = new RetryBudget(FAST);
        AtomicInteger attempts = new AtomicInteger();
        String value = budget.call(OperationKind.CHUNK_INSERT, () -> {
            if (attempts.incrementAndGet() < 3) {
                throw new java.io.UncheckedIOException(new SocketException("Connection reset"));
            }
            return "ok";
        });
        assertEquals("ok", value);
        assertEquals(3, attempts.get());
        RetryTally t = budget.tally();
        assertEquals(2, t.retries());
        assertEquals(Map.of("chunk_insert", 2L), t.byKind());
        assertFalse(t.budgetExhausted());
    }

    @Test
    void aPermanentFailurePassesThroughAtOnce() {
        RetryBudget budget = new RetryBudget(FAST);
        AtomicInteger attempts = new AtomicInteger();
        DponeException refused = new DponeException(BlockerCode.SINK_LOAD_FAILED, "sink", "no");
        DponeException e = assertThrows(DponeException.class, () -> budget.run(OperationKind.CHUNK_INSERT, () -> {
            attempts.incrementAndGet();
            throw refused;
        }));
        assertSame(refused, e);
        assertEquals(1, attempts.get());
        assertEquals(0, budget.tally().retries());
    }

    @Test
    void theBudgetIsSharedByEveryOperationOfTheRunAndFailsTypedWhenSpent() {
        RetryBudget budget = new RetryBudget(FAST);
        AtomicInteger attempts = new AtomicInteger();
        TransientFailure reset = new TransientFailure(BlockerCode.CONNECTION_FAILED, "clickhouse", "reset");
        budget.call(OperationKind.METADATA_QUERY, () -> {
            if (attempts.incrementAndGet() < 4) {
                throw reset;
            }
            return 1;
        });
        DponeException e = assertThrows(DponeException.class, () -> budget.run(OperationKind.CHUNK_INSERT, () -> {
            attempts.incrementAndGet();
            throw reset;
        }));
        List<String> codes = e.blockers().stream().map(Blocker::code).toList();
        assertEquals(List.of("connection.failed", "connection.retry_budget_exhausted"), codes);
        assertEquals("chunk_insert", e.blockers().get(1).subject());
        RetryTally t = budget.tally();
        assertEquals(5, t.retries(), "three for the query, two for the insert: five in all");
        assertEquals(Map.of("metadata_query", 3L, "chunk_insert", 2L), t.byKind());
        assertTrue(t.budgetExhausted());
        assertEquals(4 + 3, attempts.get());
    }

    @Test
    void theTimeBudgetEndsRetriesToo() {
        RetryBudget budget = new RetryBudget(new RetrySettings(1000, Duration.ofMillis(50), Duration.ofMillis(10),
            Duration.ofMillis(20)));
        long t0 = System.nanoTime();
        assertThrows(DponeException.class, () -> budget.run(OperationKind.OBJECT_PUT, () -> {
            throw new TransientFailure(BlockerCode.CONNECTION_FAILED, "s3", "503");
        }));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(ms < 5_000, ms + " ms");
        assertTrue(budget.tally().retries() < 20, budget.tally().toString());
        assertTrue(budget.tally().budgetExhausted());
    }

    @Test
    void noRetriesMeansTheFirstFailureAsBefore() {
        RetryBudget budget = RetryBudget.none();
        TransientFailure reset = new TransientFailure(BlockerCode.CONNECTION_FAILED, "clickhouse", "reset");
        DponeException e = assertThrows(DponeException.class, () -> budget.run(OperationKind.CHUNK_INSERT, () -> {
            throw reset;
        }));
        assertSame(reset, e);
        assertFalse(budget.tally().budgetExhausted());
    }

    @Test
    void theClassifierSeesResetsTimeoutsStatusesAndDroppedTdsConnections() {
        assertTrue(TransientFaults.isTransient(new RuntimeException(new SocketException("Connection reset"))));
        assertTrue(TransientFaults.isTransient(new java.net.SocketTimeoutException("Read timed out")));
        // a refused connect: nothing listens there (down, or a wrong port): fails at once, typed
        assertFalse(TransientFaults.isTransient(new java.net.ConnectException("Connection refused")));
        assertFalse(TransientFaults.isTransient(new RuntimeException(new java.net.ConnectException(
            "Connect to http://127.0.0.1:1 failed: Connection refused"))));
        // a client's own ConnectException for an answer that is no refusal (client-v2's HTTP 503) stays transient
        assertTrue(TransientFaults.isTransient(new java.net.ConnectException("Server returned 503")));
        assertFalse(TransientFaults.isTransientSql(new SQLException("TCP/IP connection failed", "08S01",
            new java.net.ConnectException("Connection refused"))));
        assertTrue(TransientFaults.isTransient(new SQLException("The connection is closed.", "08S01")));
        assertFalse(TransientFaults.isTransient(new SQLException("Invalid object name", "S0002")));
        assertFalse(TransientFaults.isTransient(new IllegalStateException("bug")));
        assertFalse(TransientFaults.isTransient(new DponeException(BlockerCode.CONNECTION_FAILED, "x", "typed")),
            "a typed failure was classified where it was raised");
        assertTrue(TransientFaults.isTransient(new IllegalStateException("split",
            new TransientFailure(BlockerCode.CONNECTION_FAILED, "x", "reset"))), "Camel wraps a step's failure");
        assertTrue(TransientFaults.isTransientHttpStatus(502));
        assertTrue(TransientFaults.isTransientHttpStatus(503));
        assertFalse(TransientFaults.isTransientHttpStatus(500));
        assertFalse(TransientFaults.isTransientHttpStatus(401));
        assertTrue(TransientFaults.isTransientServerCode(210));
        assertFalse(TransientFaults.isTransientServerCode(241));
    }
}
