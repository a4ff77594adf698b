package io.dpone.cdc.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.cdc.CdcBatch;
import io.dpone.cdc.CdcOffset;
import io.dpone.cdc.CdcSourceReader;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.retry.RetryBudget;
import io.dpone.retry.RetrySettings;
import io.dpone.retry.TransientFailure;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: a live tick's reader reads its batch again on a fresh source connection after a transient fault, under
 * the tick's budget ({@code source_read}), and only then; a spent budget fails typed with the last cause.
 */
class ReconnectingCdcReaderTest {
    private static final RetrySettings FAST = new RetrySettings(5, Duration.ofSeconds(10), Duration.ofMillis(1),
        Duration.ofMillis(2));

    /** Connections that know whether they were closed. */
    private final List<AtomicBoolean> closed = new ArrayList<>();

    private Connection connection() {
        AtomicBoolean c = new AtomicBoolean();
        closed.add(c);
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
            (proxy, method, args) -> switch (method.getName()) {
                case "close" -> {
                    c.set(true);
                    yield null;
                }
                case "isClosed" -> c.get();
                case "hashCode" -> System.identityHashCode(proxy);
                case "equals" -> proxy == args[0];
                default -> throw new UnsupportedOperationException(method.getName());
            });
    }

    private static CdcBatch batch() {
        return new CdcBatch("0", null, List.of());
    }

    @Test
    void aDroppedConnectionIsReplacedAndTheBatchReadAgainCountedAsSourceRead() {
        List<Connection> readOn = new ArrayList<>();
        int[] failures = {2};
        CdcBatch batch = batch();
        RetryBudget budget = new RetryBudget(FAST);
        ReconnectingCdcReader.Session session = new ReconnectingCdcReader.Session(connection(), this::connection);
        ReconnectingCdcReader reader = new ReconnectingCdcReader(session, c -> new CdcSourceReader() {
            @Override
            public CdcBatch readBatch(CdcOffset from, int maxEvents) {
                readOn.add(c);
                if (failures[0]-- > 0) {
                    throw new TransientFailure(BlockerCode.SOURCE_READ_FAILED, "source.cdc.dbo_orders", "dropped");
                }
                return batch;
            }
        }, budget);
        assertSame(batch, reader.readBatch(null, 10));
        assertEquals(3, readOn.size());
        assertEquals(3, readOn.stream().distinct().count(), "each attempt on a fresh connection");
        assertEquals(List.of(true, true, false), closed.stream().map(AtomicBoolean::get).toList(),
            "the broken connections were closed");
        assertEquals(Map.of("source_read", 2L), budget.tally().byKind());
        session.close();
        assertTrue(closed.get(2).get());
    }

    @Test
    void aPermanentFailureIsNotRetriedAndKeepsTheConnection() {
        RetryBudget budget = new RetryBudget(FAST);
        int[] reads = {0};
        ReconnectingCdcReader reader = new ReconnectingCdcReader(new ReconnectingCdcReader.Session(connection(),
            this::connection), c -> (from, max) -> {
                reads[0]++;
                throw new DponeException(BlockerCode.SOURCE_READ_FAILED, "source.cdc.dbo_orders", "refused");
            }, budget);
        DponeException e = assertThrows(DponeException.class, () -> reader.readBatch(null, 10));
        assertEquals(List.of("source.read_failed"), e.blockers().stream().map(Blocker::code).toList());
        assertEquals(1, reads[0]);
        assertEquals(0, budget.tally().retries());
        assertEquals(1, closed.size(), "no second connection");
    }

    @Test
    void aSpentBudgetFailsTypedWithTheLastCauseFirst() {
        RetryBudget budget = new RetryBudget(new RetrySettings(2, Duration.ofSeconds(10), Duration.ofMillis(1),
            Duration.ofMillis(2)));
        ReconnectingCdcReader reader = new ReconnectingCdcReader(new ReconnectingCdcReader.Session(connection(),
            this::connection), c -> (from, max) -> {
                throw new TransientFailure(BlockerCode.SOURCE_READ_FAILED, "source.cdc.dbo_orders", "dropped");
            }, budget);
        DponeException e = assertThrows(DponeException.class, () -> reader.readBatch(null, 10));
        assertEquals(List.of("source.read_failed", "connection.retry_budget_exhausted"),
            e.blockers().stream().map(Blocker::code).toList());
        assertTrue(budget.tally().budgetExhausted());
        assertEquals(2, budget.tally().byKind().get("source_read"));
    }

    @Test
    void aConnectThatFailsTransientlyIsRetriedToo() {
        RetryBudget budget = new RetryBudget(FAST);
        int[] connects = {0};
        ReconnectingCdcReader.Session session = new ReconnectingCdcReader.Session(connection(), () -> {
            if (connects[0]++ == 0) {
                throw new TransientFailure(BlockerCode.CONNECTION_FAILED, "mssql_demo", "reset during login");
            }
            return connection();
        });
        int[] reads = {0};
        CdcBatch batch = batch();
        ReconnectingCdcReader reader = new ReconnectingCdcReader(session, c -> (from, max) -> {
            if (reads[0]++ == 0) {
                throw new TransientFailure(BlockerCode.SOURCE_READ_FAILED, "source.cdc.dbo_orders", "dropped");
            }
            return batch;
        }, budget);
        assertSame(batch, reader.readBatch(null, 10));
        assertEquals(2, connects[0]);
        assertEquals(2L, budget.tally().byKind().get("source_read"));
    }
}
