package io.dpone.clickhouse.chdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jna.Memory;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The third line of defence: an engine whose connect changes a disposition the JVM depends on anyway (faked here:
 * its connect sets SIGHUP to SIG_IGN) is refused with a message naming the signal, its connection closed, and the
 * JVM's disposition put back.
 */
@io.dpone.testing.EngineTest
class SignalChangeRefusalTest {
    private static final int SIGHUP = 1;

    @Test
    void aConnectThatChangesAWatchedDispositionIsRefusedClosedAndUndone() {
        SignalHandlerGuard before = SignalHandlerGuard.capture();
        AtomicInteger closes = new AtomicInteger();
        ChdbNative engine = fakeEngine(closes);
        ChdbException e = assertThrows(ChdbException.class,
            () -> ChdbConnection.connect(engine, List.of("clickhouse", "--path=/nowhere")));
        assertTrue(e.getMessage().contains("(SIGHUP)") && e.getMessage().contains("refuses to run on"), e.getMessage());
        assertEquals(1, closes.get(), "the refused connection is closed");
        assertEquals(List.of(), SignalHandlerGuard.capture().changedSince(before), "SIGHUP is the JVM's again");
    }

    /**
     * An engine whose connect replaces SIGHUP's disposition, as a library that ignores the isolation would; it
     * counts closes and supports nothing else.
     */
    private static ChdbNative fakeEngine(AtomicInteger closes) {
        return (ChdbNative) Proxy.newProxyInstance(ChdbNative.class.getClassLoader(),
            new Class<?>[] {ChdbNative.class}, (proxy, method, args) -> switch (method.getName()) {
                case "chdb_connect" -> {
                    Memory ignore = new Memory(256);
                    ignore.clear();
                    ignore.setLong(0, 1); // SIG_IGN
                    Libc.INSTANCE.sigaction(SIGHUP, ignore, null);
                    Memory handle = new Memory(8);
                    handle.setPointer(0, new Memory(8));
                    yield handle;
                }
                case "chdb_close_conn" -> {
                    closes.incrementAndGet();
                    yield null;
                }
                default -> throw new UnsupportedOperationException(method.getName());
            });
    }
}
