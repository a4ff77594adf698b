package io.dpone.route;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;

/** A run's own chunk spool directory under the state directory, keyed by run key. */
final class SpoolDirectory {
    private SpoolDirectory() {
    }

    /** Creates the run's spool directory empty, removing what a crashed attempt of the same run left. */
    static Path fresh(Path workDir, String runKey) {
        Path dir = workDir.resolve("spool").resolve(runKey);
        delete(dir);
        try {
            return io.dpone.connect.PrivateFiles.ownDirectory(dir); // 0700: chunks hold rows
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the chunk spool directory", e);
        }
    }

    /** Deletes {@code dir} and everything in it; a missing directory is fine. */
    static void delete(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete spooled chunks", e);
        }
    }
}
