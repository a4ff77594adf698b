package io.dpone.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 37: a run's chunk spool (rows) is a private directory, and the state directory above it too when created. */
class SpoolDirectoryTest {
    @TempDir
    Path dir;

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test
    void theSpoolIs0700() throws Exception {
        Path spool = SpoolDirectory.fresh(dir.resolve("state"), "k1");
        assertEquals("rwx------", mode(spool));
        assertEquals("rwx------", mode(spool.getParent()));
        assertEquals("rwx------", mode(dir.resolve("state")));
        // an older spool directory left 0755 is narrowed when the run recreates it
        Path old = Files.createDirectories(dir.resolve("state/spool/k2"));
        Files.setPosixFilePermissions(old, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertEquals("rwx------", mode(SpoolDirectory.fresh(dir.resolve("state"), "k2")));
    }

    @Test
    void aSpoolThatIsALinkToASharedDirectoryIsRefused() throws Exception {
        Path shared = Files.createDirectory(dir.resolve("shared"));
        Files.setAttribute(shared, "unix:mode", 01777);
        Files.createDirectories(dir.resolve("state/spool"));
        Files.createSymbolicLink(dir.resolve("state/spool/k3"), shared);
        // fresh() deletes what a crashed attempt left (the link itself), then creates a private directory
        Path spool = SpoolDirectory.fresh(dir.resolve("state"), "k3");
        assertEquals(false, Files.isSymbolicLink(spool));
        assertEquals("rwx------", mode(spool));
        assertEquals(01777, ((Integer) Files.getAttribute(shared, "unix:mode")) & 07777, "the shared one untouched");
        assertThrows(io.dpone.connect.PrivateFiles.Unsafe.class, () -> io.dpone.connect.PrivateFiles.ownDirectory(shared));
    }
}
