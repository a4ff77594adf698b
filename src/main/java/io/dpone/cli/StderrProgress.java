package io.dpone.cli;

import com.sun.jna.Library;
import com.sun.jna.Native;
import io.dpone.manifest.ShortDuration;
import io.dpone.route.ProgressListener;
import java.io.PrintStream;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The CLI's progress on stderr (never stdout, which carries the command's document): rows done, of the expected rows
 * when the source can estimate them, chunks, rows/s, elapsed time and an estimate of the time left. On a terminal one
 * live line, redrawn at most twice a second and cleared at the end; otherwise (a pipe, a CI log, a pod) one plain line
 * every {@value #INTERVAL_ENV} (default 30s), so a short command prints nothing; with {@code --format json}, none
 * (a program reads stderr's failure document). {@code --quiet} turns it off.
 */
final class StderrProgress implements ProgressListener, AutoCloseable {
    static final String INTERVAL_ENV = "DPONE_PROGRESS_INTERVAL";
    static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(30);
    private static final long REDRAW_NANOS = 500_000_000L;

    interface LibC extends Library {
        int isatty(int fd);
    }

    private final PrintStream err;
    private final boolean tty;
    private final long plainEveryNanos;
    private final LongSupplier nanos;
    private final String label;
    private long started;
    private long lastLine;
    private long rows;
    private long expected = -1;
    private int chunks;
    private boolean drew;

    StderrProgress(PrintStream err, boolean tty, Duration plainEvery, LongSupplier nanos) {
        this(err, tty, plainEvery, nanos, null);
    }

    /** {@code label} (e.g. a certification's current route) starts every line; null for none. */
    StderrProgress(PrintStream err, boolean tty, Duration plainEvery, LongSupplier nanos, String label) {
        this.label = label;
        this.err = err;
        this.tty = tty;
        this.plainEveryNanos = plainEvery == null ? 0 : plainEvery.toNanos();
        this.nanos = nanos;
    }

    /**
     * The progress of this process's command on its stderr: none when {@code quiet}, and none when the command
     * writes {@code json}, on a terminal or not (its failure document goes to stderr, whole).
     */
    static StderrProgress onStderr(boolean quiet, Format format) {
        return onStderr(quiet, format, null);
    }

    /** As {@link #onStderr(boolean, Format)}, each line starting with {@code label}. */
    static StderrProgress onStderr(boolean quiet, Format format, String label) {
        boolean tty;
        try {
            // --format json: stderr holds only the failure document, on a terminal too (README)
            tty = !quiet && format != Format.json && Native.load("c", LibC.class).isatty(2) == 1;
        } catch (UnsatisfiedLinkError | RuntimeException e) {
            tty = false;
        }
        Duration every = quiet || format == Format.json ? null
            : ShortDuration.parse(System.getenv(INTERVAL_ENV)).orElse(DEFAULT_INTERVAL);
        return new StderrProgress(System.err, tty, every, System::nanoTime, label);
    }

    @Override
    public synchronized void rowsRead(long count) {
        rows = count;
        update();
    }

    @Override
    public synchronized void rowsExpected(long count) {
        expected = count;
    }

    /** The rows read so far (for the interrupted run's paragraph). */
    synchronized long rows() {
        return rows;
    }

    /** The chunks loaded so far. */
    synchronized int chunks() {
        return chunks;
    }

    @Override
    public synchronized void chunkDone(int count) {
        chunks = count;
        update();
    }

    private void update() {
        long now = nanos.getAsLong();
        if (started == 0) {
            started = now; // rates count from the first row, not from engine start-up
            lastLine = now;
            return;
        }
        if (tty && now - lastLine >= REDRAW_NANOS) {
            err.print("\r\033[K  " + line(now));
            err.flush();
            drew = true;
            lastLine = now;
        } else if (!tty && plainEveryNanos > 0 && now - lastLine >= plainEveryNanos) {
            err.println("progress: " + line(now));
            err.flush();
            lastLine = now;
        }
    }

    /** {@code 1,200,000 of ~5,000,000 rows (24%), 12 chunks, 210,532 rows/s, 5.7 s elapsed, about 18 s left}. */
    String line(long now) {
        double secs = Math.max(1e-3, (now - started) / 1e9);
        double rate = rows / secs;
        StringBuilder out = new StringBuilder(label == null ? "" : label + ": ").append(String.format("%,d", rows));
        if (expected > 0) {
            out.append(String.format(" of ~%,d rows (%d%%)", expected, Math.min(100, rows * 100 / expected)));
        } else {
            out.append(" rows");
        }
        out.append(String.format(", %d chunk%s, %,.0f rows/s, %.1f s elapsed", chunks, chunks == 1 ? "" : "s", rate,
            secs));
        if (expected > rows && rate > 0) {
            out.append(String.format(", about %.0f s left", (expected - rows) / rate));
        }
        return out.toString();
    }

    @Override
    public synchronized void close() {
        if (drew) {
            err.print("\r\033[K");
            err.flush();
        }
    }
}
