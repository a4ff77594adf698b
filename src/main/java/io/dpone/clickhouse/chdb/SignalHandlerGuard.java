package io.dpone.clickhouse.chdb;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/**
 * Saves the JVM's POSIX signal dispositions and puts them back after chDB has replaced them.
 *
 * <p>{@code chdb_connect} installs ClickHouse's own handlers for SIGSEGV, SIGBUS, SIGFPE, SIGILL and more. The
 * HotSpot JVM relies on its SIGSEGV handler for implicit null checks and safepoint polls, so without the restore
 * the JVM dies on the next null dereference it expects to turn into a NullPointerException. JNA has no binding
 * for {@code sigaction}; the struct is treated as an opaque, generously sized buffer because only the kernel
 * and libc read it.
 */
final class SignalHandlerGuard {
    /** Every catchable standard signal except SIGKILL (9) and SIGSTOP (19): the JVM owns SIGTERM/SIGINT too. */
    private static final int[] SIGNALS = {1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 16, 17, 18, 20, 21, 22,
        23, 24, 25, 26, 27, 28, 29, 30, 31};
    private static final int SIGACTION_STRUCT_BYTES = 256;

    interface LibC extends Library {
        int sigaction(int signum, Pointer act, Pointer oldact);
    }

    private static final LibC LIBC = Native.load("c", LibC.class);

    private final Memory saved = new Memory((long) SIGNALS.length * SIGACTION_STRUCT_BYTES);

    private SignalHandlerGuard() {
        saved.clear();
    }

    /** Captures the current dispositions of every signal in {@link #SIGNALS}. */
    static SignalHandlerGuard capture() {
        SignalHandlerGuard guard = new SignalHandlerGuard();
        for (int i = 0; i < SIGNALS.length; i++) {
            LIBC.sigaction(SIGNALS[i], null, guard.slot(i));
        }
        return guard;
    }

    /** Reinstalls the captured dispositions. */
    void restore() {
        for (int i = 0; i < SIGNALS.length; i++) {
            if (LIBC.sigaction(SIGNALS[i], slot(i), null) != 0) {
                throw new IllegalStateException("sigaction restore failed for signal " + SIGNALS[i]);
            }
        }
    }

    private Pointer slot(int index) {
        return saved.share((long) index * SIGACTION_STRUCT_BYTES, SIGACTION_STRUCT_BYTES);
    }
}
