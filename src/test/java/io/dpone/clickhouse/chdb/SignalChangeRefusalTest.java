package io.dpone.clickhouse.chdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The third line of defence: an engine whose connect changes a disposition the JVM depends on anyway (faked here:
 * its connect sets SIGHUP to SIG_IGN) is refused with a message naming the signal, its connection closed, and the
 * JVM's disposition put back.
 */
class SignalChangeRefusalTest {
    private static final int SIGHUP = 1;

    @Test
    void aConnectThatChangesAWatchedDispositionIsRefusedClosedAndUndone() {
        SignalHandlerGuard before = SignalHandlerGuard.capture();
        AtomicInteger closes = new AtomicInteger();
        ChdbNative engine = new FakeEngine(closes);
        ChdbException e = assertThrows(ChdbException.class,
            () -> ChdbConnection.connect(engine, List.of("clickhouse", "--path=/nowhere")));
        assertTrue(e.getMessage().contains("(SIGHUP)") && e.getMessage().contains("refuses to run on"), e.getMessage());
        assertEquals(1, closes.get(), "the refused connection is closed");
        assertEquals(List.of(), SignalHandlerGuard.capture().changedSince(before), "SIGHUP is the JVM's again");
    }

    /** An engine whose connect replaces SIGHUP's disposition, as a library that ignores the isolation would. */
    private static final class FakeEngine implements ChdbNative {
        private final AtomicInteger closes;

        FakeEngine(AtomicInteger closes) {
            this.closes = closes;
        }

        @Override
        public Pointer chdb_connect(int argc, String[] argv) {
            Memory ignore = new Memory(256);
            ignore.clear();
            ignore.setLong(0, 1); // SIG_IGN
            Libc.INSTANCE.sigaction(SIGHUP, ignore, null);
            Memory handle = new Memory(8);
            handle.setPointer(0, new Memory(8));
            return handle;
        }

        @Override
        public void chdb_close_conn(Pointer connection) {
            closes.incrementAndGet();
        }

        @Override
        public void chdb_set_signal_handlers_enabled(int enabled) {
        }

        @Override
        public Pointer chdb_query_n(Pointer conn, byte[] query, long queryLength, byte[] format, long formatLength) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Pointer chdb_result_buffer(Pointer result) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long chdb_result_length(Pointer result) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long chdb_result_rows_read(Pointer result) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long chdb_result_bytes_read(Pointer result) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long chdb_result_rows_written(Pointer result) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long chdb_result_bytes_written(Pointer result) {
            throw new UnsupportedOperationException();
        }

        @Override
        public double chdb_result_elapsed(Pointer result) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Pointer chdb_result_error(Pointer result) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void chdb_destroy_query_result(Pointer result) {
            throw new UnsupportedOperationException();
        }
    }
}
