package io.dpone.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** Writes a file so readers see the old content or the complete new one: temp file, fsync, rename, dir fsync. */
public final class AtomicFiles {
    private AtomicFiles() {
    }

    public static void write(Path target, String content) {
        write(target, content.getBytes(StandardCharsets.UTF_8));
    }

    /** The temporary files {@link #write} creates beside {@code target} start with this and end with {@code .tmp}. */
    private static String tempPrefix(Path target) {
        return "." + target.getFileName();
    }

    /**
     * Deletes the temporary files a writer of {@code target} left when it died between writing and renaming. Only for
     * a target with one writer at a time (another writer's file in flight would be deleted too).
     */
    public static void deleteStaleTemps(Path target) {
        Path dir = target.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            return;
        }
        String prefix = tempPrefix(target);
        try (var files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith(prefix)
                    && p.getFileName().toString().endsWith(".tmp")).toList()) {
                Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            // a leftover temporary file is untidy, not wrong: the target itself is only ever replaced atomically
        }
    }

    /**
     * How many temporary files of {@code target} a writer left (what {@link #deleteStaleTemps} removes); -1 when the
     * directory cannot be listed.
     */
    public static long staleTemps(Path target) {
        Path dir = target.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            return 0;
        }
        String prefix = tempPrefix(target);
        try (var files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().startsWith(prefix)
                && p.getFileName().toString().endsWith(".tmp")).count();
        } catch (IOException e) {
            return -1;
        }
    }

    public static void write(Path target, byte[] content) {
        try {
            Path dir = target.toAbsolutePath().getParent();
            io.dpone.connect.PrivateFiles.directory(dir); // missing directories 0700
            Path tmp = io.dpone.connect.PrivateFiles.tempFile(dir, tempPrefix(target), ".tmp"); // random name, 0600
            try {
                try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                    ch.write(java.nio.ByteBuffer.wrap(content));
                    ch.force(true);
                }
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(tmp);
            }
            try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
                d.force(true);
            } catch (IOException ignored) {
                // some file systems cannot fsync a directory; the rename is still atomic
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target.getFileName(), e);
        }
    }
}
