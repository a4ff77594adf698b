package io.dpone.cli;

import com.sun.jna.Library;
import com.sun.jna.Native;
import io.dpone.route.ProgressListener;
import java.io.PrintStream;

/**
 * A one-line progress display (rows, rows/s, elapsed) on stderr, redrawn at most twice a second, and only when
 * stderr is a terminal: piped or captured output never gets control characters.
 */
final class TerminalProgress implements ProgressListener, AutoCloseable {
    interface LibC extends Library {
        int isatty(int fd);
    }

    private final PrintStream err;
    private final boolean enabled;
    private long started;
    private long lastDraw;
    private boolean drew;

    private TerminalProgress(PrintStream err, boolean enabled) {
        this.err = err;
        this.enabled = enabled;
    }

    static TerminalProgress onStderr() {
        boolean tty;
        try {
            tty = Native.load("c", LibC.class).isatty(2) == 1;
        } catch (UnsatisfiedLinkError e) {
            tty = false;
        }
        return new TerminalProgress(System.err, tty);
    }

    @Override
    public synchronized void rowsRead(long rows) {
        long now = System.nanoTime();
        if (started == 0) {
            started = now; // rates count from the first row, not from engine start-up
            lastDraw = now;
        }
        if (!enabled || now - lastDraw < 500_000_000L) {
            return;
        }
        lastDraw = now;
        double secs = Math.max(1e-3, (now - started) / 1e9);
        err.printf("\r\033[K  %,d rows  %,.0f rows/s  %.1f s", rows, rows / secs, secs);
        err.flush();
        drew = true;
    }

    @Override
    public synchronized void close() {
        if (drew) {
            err.print("\r\033[K");
            err.flush();
        }
    }
}
