package io.dpone.clickhouse.chdb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.jna.Memory;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The guard sees a changed disposition of a watched signal and a changed thread mask, and puts both back. */
class SignalHandlerGuardTest {
    private static final int SIGHUP = 1;
    private static final int SIGBUS = 7;
    private static final int SIGPIPE = 13;
    private static final long SIG_IGN = 1;
    private static final long SIG_DFL = 0;

    @Test
    void aChangedWatchedDispositionIsNamedAndRestored() {
        SignalHandlerGuard before = SignalHandlerGuard.capture();
        // a disposition other than the one the JVM has (under nohup SIGHUP is already ignored)
        long other = before.handlerOf(SIGHUP) == SIG_IGN ? SIG_DFL : SIG_IGN;
        Memory ignore = new Memory(256);
        ignore.clear();
        ignore.setLong(0, other);
        try {
            Libc.INSTANCE.sigaction(SIGHUP, ignore, null);
            SignalHandlerGuard after = SignalHandlerGuard.capture();
            assertEquals(other, after.handlerOf(SIGHUP));
            assertEquals(List.of("SIGHUP"), after.changedSince(before));
        } finally {
            before.restore();
        }
        assertEquals(List.of(), SignalHandlerGuard.capture().changedSince(before));
    }

    @Test
    void aFaultSignalBlockedOnTheThreadIsNamedAndAnyMaskChangeIsRestored() {
        SignalHandlerGuard before = SignalHandlerGuard.capture();
        Memory set = new Memory(128);
        set.clear();
        set.setLong(0, 1L << (SIGPIPE - 1));
        Memory now = new Memory(128);
        try {
            Libc.INSTANCE.pthread_sigmask(0 /* SIG_BLOCK */, set, null);
            assertEquals(List.of(), SignalHandlerGuard.capture().changedSince(before), "SIGPIPE blocked is harmless");
            set.setLong(0, 1L << (SIGBUS - 1));
            Libc.INSTANCE.pthread_sigmask(0 /* SIG_BLOCK */, set, null);
            assertEquals(List.of("SIGBUS blocked on the calling thread"),
                SignalHandlerGuard.capture().changedSince(before));
        } finally {
            before.restore();
        }
        Libc.INSTANCE.pthread_sigmask(2, null, now);
        assertEquals(0, now.getLong(0) & ((1L << (SIGPIPE - 1)) | (1L << (SIGBUS - 1))), "the mask is restored");
    }
}
