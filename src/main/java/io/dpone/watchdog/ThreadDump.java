package io.dpone.watchdog;

import io.dpone.connect.PrivateFiles;
import java.io.IOException;
import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * A thread dump of every live Java thread with its whole stack, locks and state, like {@code jstack}'s, written as a
 * file. {@link ThreadInfo#toString()} is not used: it stops after eight frames.
 */
public final class ThreadDump {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
        .withZone(ZoneOffset.UTC);

    private ThreadDump() {
    }

    /** The dump as text. */
    public static String text() {
        StringBuilder sb = new StringBuilder("Full thread dump (dpone), ").append(Instant.now()).append("\n\n");
        for (ThreadInfo t : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
            sb.append('"').append(t.getThreadName()).append("\" #").append(t.getThreadId())
                .append(t.isDaemon() ? " daemon" : "").append(" state=").append(t.getThreadState());
            if (t.getLockName() != null) {
                sb.append(" waiting on ").append(t.getLockName());
            }
            if (t.getLockOwnerName() != null) {
                sb.append(" owned by \"").append(t.getLockOwnerName()).append('"');
            }
            sb.append(t.isInNative() ? " (in native)" : "").append('\n');
            StackTraceElement[] stack = t.getStackTrace();
            for (int i = 0; i < stack.length; i++) {
                sb.append("\tat ").append(stack[i]).append('\n');
                for (MonitorInfo m : t.getLockedMonitors()) {
                    if (m.getLockedStackDepth() == i) {
                        sb.append("\t- locked ").append(m).append('\n');
                    }
                }
            }
            for (LockInfo l : t.getLockedSynchronizers()) {
                sb.append("\t- holds ").append(l).append('\n');
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /**
     * Writes the dump into {@code directory} as {@code threads-<phase>-<UTC>.txt} and returns the file name (never the
     * path: reports carry no local paths), or null when it could not be written.
     */
    public static String writeInto(Path directory, String phase) {
        String name = "threads-" + phase.replaceAll("[^A-Za-z0-9._-]", "_") + "-" + STAMP.format(Instant.now())
            + ".txt";
        try {
            // a new file only (0600, O_EXCL): a link planted at the predictable name is never followed; the directory
            // may be one a person named (--output-dir), so only a missing one is created (0700)
            PrivateFiles.directory(directory);
            try (java.io.OutputStream out = PrivateFiles.createNew(directory.resolve(name))) {
                out.write(text().getBytes(StandardCharsets.UTF_8));
            }
            return name;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
