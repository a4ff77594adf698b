package io.dpone.cdc.local;

import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.CdcTickFence;
import io.dpone.cdc.StreamIdentity;
import io.dpone.connect.PrivateFiles;
import io.dpone.error.DponeException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The local fence of a tick: an exclusive OS file lock on a lock file beside each piece of local state (the
 * checkpoint file, the local sink directory), taken in a fixed order without waiting and held until the tick has
 * written its report. The lock files are never deleted (deleting a lock file another process has open would let a
 * third process lock a new file of the same name); the checkpoint itself is replaced by rename, so it cannot carry
 * the lock. A lock held by this JVM (another tick in the same {@code serve}) counts as held, like one of another
 * process.
 */
public final class FileTickFence implements CdcTickFence {
    /** The lock file beside the checkpoint {@code checkpoint.json}: {@code checkpoint.json.lock}. */
    public static final String LOCK_SUFFIX = ".lock";
    /** The lock file inside the local sink directory. */
    public static final String SINK_LOCK = ".dpone-sink.lock";

    private final List<Target> targets;

    private record Target(Path lockFile, String subject, String what) {
    }

    private FileTickFence(List<Target> targets) {
        this.targets = targets;
    }

    /**
     * The fence of a local tick: the checkpoint's lock (when {@code checkpoint} is given) and the sink directory's
     * (when {@code sinkDir} is given), in that order.
     */
    public static CdcTickFence of(Path checkpoint, Path sinkDir) {
        List<Target> t = new ArrayList<>();
        if (checkpoint != null) {
            t.add(new Target(checkpoint.resolveSibling(checkpoint.getFileName() + LOCK_SUFFIX), "--checkpoint-json",
                "its checkpoint " + checkpoint.getFileName()));
        }
        if (sinkDir != null) {
            t.add(new Target(sinkDir.resolve(SINK_LOCK), "--output-dir", "its local sink directory"));
        }
        return t.isEmpty() ? NONE : new FileTickFence(List.copyOf(t));
    }

    @Override
    public Held acquire(StreamIdentity stream) {
        List<FileChannel> held = new ArrayList<>();
        try {
            for (Target target : targets) {
                FileChannel channel = open(target.lockFile());
                held.add(channel);
                if (!tryLock(channel)) {
                    throw new DponeException(CdcBlockers.blocker(CdcBlockers.OFFSET_CONFLICT, target.subject(),
                        "another tick of stream " + stream.pipelineName() + " holds " + target.what()
                            + "; this tick read, applied and committed nothing",
                        Map.of("holder", "another tick (this or another process)")));
                }
            }
        } catch (RuntimeException e) {
            closeAll(held);
            throw e;
        }
        return () -> closeAll(held);
    }

    private static FileChannel open(Path lockFile) {
        try {
            PrivateFiles.directory(lockFile.toAbsolutePath().getParent());
            return PrivateFiles.lockFile(lockFile); // a link at the lock's name is refused, never followed
        } catch (PrivateFiles.Unsafe e) {
            throw new DponeException(io.dpone.error.BlockerCode.RUNTIME_UNSAFE_PATH, "tick_lock",
                e.getMessage() + "; nothing was read or applied");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the tick lock " + lockFile.getFileName(), e);
        }
    }

    private static boolean tryLock(FileChannel channel) {
        try {
            FileLock lock = channel.tryLock();
            return lock != null;
        } catch (OverlappingFileLockException e) {
            return false; // held by another tick of this JVM
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock the tick lock", e);
        }
    }

    /** Closing a channel releases its lock. */
    private static void closeAll(List<FileChannel> channels) {
        for (int i = channels.size() - 1; i >= 0; i--) {
            try {
                channels.get(i).close();
            } catch (IOException e) {
                // the OS releases the lock with the descriptor; nothing else depends on this close
            }
        }
    }
}
