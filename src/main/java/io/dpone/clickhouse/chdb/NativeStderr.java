package io.dpone.clickhouse.chdb;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * What the engine writes to file descriptor 2 while it starts, caught instead of printed. chDB prints a failed start
 * ({@code EmbeddedServer::main} catches the exception and writes {@code std::cerr << getExceptionMessageForLogging(..)},
 * whatever the logger level) straight to the process's stderr: past Java's {@code System.err}, so past the
 * redaction layer and, under {@code dpone serve --log-format json}, as a line that is no JSON event. No chDB argument
 * turns that print off ({@code --logger.level}/{@code --log-level} only govern its logger, which dpone leaves at
 * chDB's default, {@code fatal}). So for the length of a connect, fd 2 is a pipe that a thread drains; the text
 * becomes part of the typed error ({@link ChdbConnection}) or, when the connect succeeded, is written again through
 * {@code System.err} (the CLI's redacting stream, serve's JSON lines).
 *
 * <p>Anything another thread of the process writes to fd 2 during that window is caught with it (and written again
 * the same way); Java's own {@code System.err} goes through the same descriptor. At most {@value #LIMIT} bytes are
 * kept. The caller serializes captures (the engine's load lock).
 */
final class NativeStderr {
    static final int LIMIT = 64 * 1024;
    private static final int STDERR = 2;
    private static final int EINTR = 4;

    private NativeStderr() {
    }

    /** A value and the text written to fd 2 while it was computed. */
    record Captured<T>(T value, String text) {
    }

    /**
     * Runs {@code action} with fd 2 redirected into a pipe; the redirection is undone before this returns or throws
     * (what was caught is then lost with the exception: callers catch inside {@code action}). Without libc (another
     * platform) {@code action} runs as is.
     */
    static <T> Captured<T> capture(Supplier<T> action) {
        Libc libc;
        try {
            libc = Libc.INSTANCE;
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            return new Captured<>(action.get(), "");
        }
        System.err.flush();
        int[] fds = new int[2];
        if (libc.pipe(fds) != 0) {
            return new Captured<>(action.get(), "");
        }
        int saved = libc.dup(STDERR);
        if (saved < 0 || libc.dup2(fds[1], STDERR) < 0) {
            libc.close(fds[0]);
            libc.close(fds[1]);
            if (saved >= 0) {
                libc.close(saved);
            }
            return new Captured<>(action.get(), "");
        }
        libc.close(fds[1]);
        ByteArrayOutputStream caught = new ByteArrayOutputStream();
        Thread drain = new Thread(() -> drain(libc, fds[0], caught), "dpone-engine-stderr");
        drain.setDaemon(true);
        drain.start();
        T value;
        try {
            System.err.flush();
            value = action.get();
            System.err.flush();
        } finally {
            libc.dup2(saved, STDERR); // the pipe's last write end closes: the drain reads its end of file
            libc.close(saved);
            try {
                drain.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        String text;
        synchronized (caught) {
            text = caught.toString(StandardCharsets.UTF_8);
        }
        return new Captured<>(value, text);
    }

    private static void drain(Libc libc, int fd, ByteArrayOutputStream caught) {
        byte[] buffer = new byte[8192];
        try {
            long n;
            while ((n = libc.read(fd, buffer, buffer.length)) != 0) {
                if (n < 0) {
                    if (com.sun.jna.Native.getLastError() == EINTR) {
                        continue;
                    }
                    return;
                }
                synchronized (caught) {
                    int keep = (int) Math.min(n, LIMIT - caught.size());
                    if (keep > 0) {
                        caught.write(buffer, 0, keep);
                    }
                }
            }
        } finally {
            libc.close(fd);
        }
    }

    /** The caught text as one line: whitespace runs (the engine's newlines) become one space; blank stays blank. */
    static String oneLine(String text) {
        return text == null ? "" : text.strip().replaceAll("\\s+", " ");
    }
}
