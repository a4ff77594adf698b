package io.dpone.clickhouse.chdb;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.util.ArrayList;
import java.util.List;

/**
 * A snapshot of the process's POSIX signal dispositions (and the calling thread's signal mask), to compare after
 * an engine call and to put back.
 *
 * <p>{@link SignalIsolation} keeps chDB from changing any disposition at all; this guard is the second and third line
 * of defence: {@link #changedSince} tells whether a disposition the JVM depends on changed anyway (the caller then
 * refuses to run on), and {@link #restore} reinstalls every captured disposition. The struct is treated as an
 * opaque, generously sized buffer because only the kernel and libc read it; the comparison reads the handler and the
 * flags at their x86_64 glibc offsets.
 */
final class SignalHandlerGuard {
    /** Every catchable standard signal except SIGKILL (9) and SIGSTOP (19): the JVM owns SIGTERM/SIGINT too. */
    private static final int[] SIGNALS = {1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 16, 17, 18, 20, 21, 22,
        23, 24, 25, 26, 27, 28, 29, 30, 31};
    /** The signals whose handlers HotSpot depends on: crash handling, thread dumps and shutdown hooks. */
    static final List<Watched> WATCHED = List.of(new Watched(11, "SIGSEGV"), new Watched(7, "SIGBUS"),
        new Watched(8, "SIGFPE"), new Watched(4, "SIGILL"), new Watched(3, "SIGQUIT"), new Watched(15, "SIGTERM"),
        new Watched(2, "SIGINT"), new Watched(1, "SIGHUP"));
    /** The first entries of {@link #WATCHED}: the signals a fault raises in the faulting thread. */
    private static final int SYNCHRONOUS_FAULTS = 4;
    private static final int SIGACTION_STRUCT_BYTES = 256;
    /** glibc x86_64 {@code struct sigaction}: handler at 0, 128-byte mask, {@code int sa_flags} at 136. */
    private static final int FLAGS_OFFSET = 136;
    private static final int SIGSET_BYTES = 128;
    private static final int SIG_SETMASK = 2;

    record Watched(int number, String name) {
    }

    private final Memory saved = new Memory((long) SIGNALS.length * SIGACTION_STRUCT_BYTES);
    private final Memory threadMask = new Memory(SIGSET_BYTES);

    private SignalHandlerGuard() {
        saved.clear();
        threadMask.clear();
    }

    /** Captures the current dispositions of every signal in {@link #SIGNALS} and this thread's signal mask. */
    static SignalHandlerGuard capture() {
        SignalHandlerGuard guard = new SignalHandlerGuard();
        for (int i = 0; i < SIGNALS.length; i++) {
            Libc.INSTANCE.sigaction(SIGNALS[i], null, guard.slot(i));
        }
        Libc.INSTANCE.pthread_sigmask(SIG_SETMASK, null, guard.threadMask);
        return guard;
    }

    /**
     * The names of the {@link #WATCHED} signals whose handler or flags differ between {@code earlier} and this
     * snapshot, plus {@code "SIGSEGV blocked on the calling thread"} (and so on) for each synchronous fault signal
     * (SIGSEGV, SIGBUS, SIGFPE, SIGILL) this thread's mask blocks now but did not then: a fault in a thread that
     * blocks it kills the process. Other mask changes are only undone by {@link #restore} (loading
     * {@code libchdb.so} blocks SIGPIPE on the loading thread, which the JVM ignores anyway). Empty when nothing
     * changed that matters.
     */
    List<String> changedSince(SignalHandlerGuard earlier) {
        List<String> changed = new ArrayList<>();
        for (Watched w : WATCHED) {
            Pointer now = slot(indexOf(w.number()));
            Pointer before = earlier.slot(indexOf(w.number()));
            if (now.getLong(0) != before.getLong(0) || now.getInt(FLAGS_OFFSET) != before.getInt(FLAGS_OFFSET)) {
                changed.add(w.name());
            }
        }
        for (Watched w : WATCHED.subList(0, SYNCHRONOUS_FAULTS)) {
            long bit = 1L << (w.number() - 1);
            if ((threadMask.getLong(0) & bit) != 0 && (earlier.threadMask.getLong(0) & bit) == 0) {
                changed.add(w.name() + " blocked on the calling thread");
            }
        }
        return changed;
    }

    /** Reinstalls the captured dispositions and this thread's captured signal mask. */
    void restore() {
        for (int i = 0; i < SIGNALS.length; i++) {
            if (Libc.INSTANCE.sigaction(SIGNALS[i], slot(i), null) != 0) {
                throw new IllegalStateException("sigaction restore failed for signal " + SIGNALS[i]);
            }
        }
        Libc.INSTANCE.pthread_sigmask(SIG_SETMASK, threadMask, null);
    }

    /** The handler address captured for {@code signal} (0 is SIG_DFL, 1 is SIG_IGN); for tests. */
    long handlerOf(int signal) {
        return slot(indexOf(signal)).getLong(0);
    }

    private static int indexOf(int signal) {
        for (int i = 0; i < SIGNALS.length; i++) {
            if (SIGNALS[i] == signal) {
                return i;
            }
        }
        throw new IllegalArgumentException("signal " + signal + " is not captured");
    }

    private Pointer slot(int index) {
        return saved.share((long) index * SIGACTION_STRUCT_BYTES, SIGACTION_STRUCT_BYTES);
    }
}
