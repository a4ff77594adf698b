package io.dpone.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dpone.error.DponeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 37: the embedded S3's directory (objects hold rows) is private, and a shared or foreign directory at its name
 * (another user's pre-created {@code /tmp/dpone-embedded-s3}) is refused typed.
 */
@io.dpone.testing.EngineTest
class EmbeddedS3DirectoryTest {
    @TempDir
    Path dir;

    @Test
    void theDirectoryIsNarrowedTo0700() throws Exception {
        Path base = Files.createDirectory(dir.resolve("s3"));
        Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
        try (EmbeddedS3 s3 = EmbeddedS3.filesystem(base)) {
            s3.createBucket("dpone-test");
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(base)));
        }
    }

    @Test
    void aSharedStickyDirectoryIsRefusedTyped() throws Exception {
        Path shared = Files.createDirectory(dir.resolve("tmp"));
        Files.setAttribute(shared, "unix:mode", 01777);
        DponeException e = assertThrows(DponeException.class, () -> EmbeddedS3.filesystem(shared));
        assertEquals("runtime.unsafe_path", e.blockers().get(0).code());
    }
}
