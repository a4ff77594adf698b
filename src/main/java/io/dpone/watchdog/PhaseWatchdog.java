package io.dpone.watchdog;

import com.sun.jna.Library;
import com.sun.jna.Native;
import io.dpone.manifest.ShortDuration;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * The CLI's wall-clock guard: while a command runs, no phase (a Camel route step, one chunk, a CDC step, a
 * publication phase) may go longer than the bound without ending or reporting progress ({@code DPONE_PHASE_TIMEOUT},
 * default 15 minutes). When one does, the guard writes a thread dump into the run's directory, lets the command
 * print its typed failure ({@code runtime.phase_timeout}) and ends the process with exit 1 at once, without shutdown
 * hooks: they may be what hangs, and the run's journal and staging are already crash-safe, so the same run id
 * resumes it.
 *
 * <p>A JVM so stuck that this thread cannot run (every thread held at a safepoint that never completes) is ended by
 * the kernel instead: {@code alarm(2)}, re-armed at every phase, fires {@value #HARD_GRACE_SECONDS} s after the bound
 * and SIGALRM's default action ends the process (exit status 142, no document: nothing in the JVM can run).
 *
 * <p>Process-wide and armed only by the CLI's {@code main}: an embedding application (the Java API, {@code dpone
 * serve}) keeps its own policy, and {@link #phase} is then a no-op.
 */
public final class PhaseWatchdog implements AutoCloseable {
    public static final String ENV = "DPONE_PHASE_TIMEOUT";
    public static final Duration DEFAULT_BOUND = Duration.ofMinutes(15);
    static final int HARD_GRACE_SECONDS = 60;
    private static volatile PhaseWatchdog armed;

    /** Prints the command's typed failure for a phase that overran; the dump's file name, or null when none. */
    @FunctionalInterface
    public interface Expiry {
        void expired(String phase, Duration bound, String threadDumpFile);
    }

    interface Process extends Library {
        Process LIBC = Native.load("c", Process.class);

        int alarm(int seconds);

        void _exit(int status);
    }

    private final Duration bound;
    private final Expiry expiry;
    private final boolean softGuard;
    private final int graceSeconds;
    private volatile Path runDirectory;
    private volatile String phase = "start";
    private volatile long deadline;
    private volatile boolean closed;
    private final Thread watcher;

    private PhaseWatchdog(Duration bound, Path runDirectory, Expiry expiry, boolean softGuard, int graceSeconds) {
        this.bound = bound;
        this.graceSeconds = graceSeconds;
        this.expiry = expiry;
        this.runDirectory = runDirectory;
        this.softGuard = softGuard;
        this.deadline = System.nanoTime() + bound.toNanos();
        this.watcher = new Thread(this::watch, "dpone-phase-watchdog");
        this.watcher.setDaemon(true);
    }

    /**
     * Arms the guard for this process with {@code bound}, writing a dump into {@code runDirectory} (a command may
     * name a better one later with {@link #runDirectory(Path)}). Only one guard is armed at a time.
     */
    public static synchronized PhaseWatchdog arm(Duration bound, Path runDirectory, Expiry expiry) {
        return arm(bound, runDirectory, expiry, true, HARD_GRACE_SECONDS);
    }

    /**
     * As {@link #arm}; {@code softGuard=false} leaves only the kernel's alarm, {@code graceSeconds} after the bound
     * (tests of the last resort).
     */
    static synchronized PhaseWatchdog arm(Duration bound, Path runDirectory, Expiry expiry, boolean softGuard,
                                          int graceSeconds) {
        if (armed != null) {
            throw new IllegalStateException("a phase watchdog is already armed in this process");
        }
        PhaseWatchdog w = new PhaseWatchdog(bound, runDirectory, expiry, softGuard, graceSeconds);
        armed = w;
        w.rearm("start");
        if (softGuard) {
            w.watcher.start();
        }
        return w;
    }

    /** True while a guard is armed in this process (the CLI's commands). */
    public static boolean armed() {
        return armed != null;
    }

    /** Marks the start or the progress of {@code name}: its bound starts again now. A no-op when none is armed. */
    public static void phase(String name) {
        PhaseWatchdog w = armed;
        if (w != null) {
            w.rearm(name);
        }
    }

    /** Where the armed guard writes its thread dump (the run's own directory, once the command knows it). */
    public static void runDirectory(Path directory) {
        PhaseWatchdog w = armed;
        if (w != null && directory != null) {
            w.runDirectory = directory;
        }
    }

    /**
     * The bound {@code DPONE_PHASE_TIMEOUT} gives ({@code 90s}, {@code 15m}, {@code 2h}, {@code 500ms}), or the
     * default when it is unset; {@link IllegalArgumentException} naming the variable when it is malformed.
     */
    public static Duration bound(String configured) {
        if (configured == null || configured.isBlank()) {
            return DEFAULT_BOUND;
        }
        return ShortDuration.parse(configured.trim().toLowerCase(Locale.ROOT)).filter(d -> !d.isZero())
            .orElseThrow(() -> new IllegalArgumentException(ENV
                + " must be a positive duration such as 90s, 15m or 2h"));
    }

    private void rearm(String name) {
        phase = name;
        deadline = System.nanoTime() + bound.toNanos();
        Process.LIBC.alarm((int) Math.min(Integer.MAX_VALUE, Math.max(1, bound.toSeconds()) + graceSeconds));
    }

    private void watch() {
        while (!closed) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                expire();
                return;
            }
            LockSupport.parkNanos(Math.min(left, 1_000_000_000L));
        }
    }

    private void expire() {
        String overran = phase;
        String dump = ThreadDump.writeInto(runDirectory, overran);
        try {
            expiry.expired(overran, bound, dump);
        } finally {
            System.out.flush();
            System.err.flush();
            Process.LIBC._exit(1); // not System.exit: a shutdown hook may be what hangs
        }
    }

    /** Disarms the guard and the kernel's alarm. */
    @Override
    public void close() {
        synchronized (PhaseWatchdog.class) {
            closed = true;
            Process.LIBC.alarm(0);
            if (armed == this) {
                armed = null;
            }
        }
        if (softGuard) {
            LockSupport.unpark(watcher);
        }
    }
}
