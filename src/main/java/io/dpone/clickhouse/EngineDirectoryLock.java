package io.dpone.clickhouse;

import io.dpone.connect.PrivateFiles;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * dpone's own lock on an embedded engine's data directory ({@value #FILE}, an OS file lock that dies with its
 * process), taken before the engine is asked to open it. Without it a second process on the same
 * {@code DPONE_HOME} reached the engine, which printed its own lock error (with the directory's absolute path) on
 * stderr and failed with a message about fetching the engine. Now that process is refused first, in plain words,
 * with the holder's process id; nothing of the engine runs.
 */
final class EngineDirectoryLock implements AutoCloseable {
    static final String FILE = ".dpone-engine.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private EngineDirectoryLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the lock of {@code dataPath} (created if missing), or refuses when another process holds it. */
    static EngineDirectoryLock take(Path dataPath) {
        FileChannel channel = null;
        try {
            PrivateFiles.ownDirectory(dataPath); // the engine's data: 0700, whatever modes the engine gives its files
            channel = PrivateFiles.lockFile(dataPath.resolve(FILE)); // a link at the name is refused, never followed
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null; // this JVM holds it through another channel: the same refusal
            }
            if (lock == null) {
                String holder = holder(channel);
                channel.close();
                throw new DponeException(BlockerCode.SINK_ENGINE_UNAVAILABLE, "clickhouse",
                    "the embedded ClickHouse data directory ($DPONE_HOME/clickhouse) is in use by another dpone "
                        + "process" + holder + "; wait for it to finish, or give this one its own DPONE_HOME");
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(Long.toString(ProcessHandle.current().pid())
                .getBytes(StandardCharsets.US_ASCII)), 0);
            return new EngineDirectoryLock(channel, lock);
        } catch (PrivateFiles.Unsafe e) {
            closeQuietly(channel);
            throw new DponeException(BlockerCode.RUNTIME_UNSAFE_PATH, "clickhouse",
                "the embedded ClickHouse data directory ($DPONE_HOME/clickhouse) is not private: " + e.getMessage());
        } catch (IOException e) {
            closeQuietly(channel);
            throw new DponeException(BlockerCode.SINK_ENGINE_UNAVAILABLE, "clickhouse",
                "the embedded ClickHouse data directory ($DPONE_HOME/clickhouse) cannot be locked for this process");
        }
    }

    /** {@code " (pid N)"} from the lock file, or nothing when it cannot be read. */
    private static String holder(FileChannel channel) {
        try {
            ByteBuffer buf = ByteBuffer.allocate(20);
            int n = channel.read(buf, 0);
            String pid = n <= 0 ? "" : new String(buf.array(), 0, n, StandardCharsets.US_ASCII).trim();
            return pid.matches("[0-9]{1,19}") ? " (pid " + pid + ")" : "";
        } catch (IOException e) {
            return "";
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing was locked through it
            }
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException ignored) {
            // the lock dies with the channel anyway
        }
        closeQuietly(channel);
    }
}
