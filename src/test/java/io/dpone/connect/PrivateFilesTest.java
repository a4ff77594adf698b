package io.dpone.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 37: files private, writes that cannot be redirected. Modes are read back with
 * {@code Files.getPosixFilePermissions}; every planted link is left as it was and its target untouched (or never
 * created, for a dangling one).
 */
class PrivateFilesTest {
    @TempDir
    Path dir;

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void missingDirectoriesAreCreated0700AndAnExistingOneAPersonNamedIsLeftAlone() throws Exception {
        Path deep = dir.resolve("a/b/c");
        PrivateFiles.directory(deep);
        for (Path p = deep; !p.equals(dir); p = p.getParent()) {
            assertEquals("rwx------", mode(p), p.toString());
        }
        Path shared = Files.createDirectory(dir.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxr-xr-x"));
        PrivateFiles.directory(shared);
        assertEquals("rwxr-xr-x", mode(shared));
    }

    @Test
    void aDirectoryDponeOwnsIsNarrowedAndASharedOrForeignOneIsRefused() throws Exception {
        Path data = Files.createDirectory(dir.resolve("clickhouse"));
        Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxr-xr-x"));
        PrivateFiles.ownDirectory(data);
        assertEquals("rwx------", mode(data));

        Path sticky = Files.createDirectory(dir.resolve("tmp"));
        Files.setAttribute(sticky, "unix:mode", 01777);
        assertThrows(PrivateFiles.Unsafe.class, () -> PrivateFiles.ownDirectory(sticky));
        assertEquals(01777, ((Integer) Files.getAttribute(sticky, "unix:mode")) & 07777, "left as it was");

        // another user pre-created the predictable name as a link to their own directory
        Assumptions.assumeTrue(((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0,
            "only root can hand a directory to another user");
        Path theirs = Files.createDirectory(dir.resolve("theirs"));
        Files.setAttribute(theirs, "unix:uid", 65534);
        Path planted = Files.createSymbolicLink(dir.resolve("dpone-embedded-s3"), theirs);
        assertThrows(PrivateFiles.Unsafe.class, () -> PrivateFiles.ownDirectory(planted));
        assertThrows(PrivateFiles.Unsafe.class, () -> PrivateFiles.ownDirectory(theirs));
    }

    @Test
    void aNewFileIs0600AndALinkAtItsNameIsNeverFollowed() throws Exception {
        Path file = dir.resolve("threads-x.txt");
        try (OutputStream out = PrivateFiles.createNew(file)) {
            out.write(1);
        }
        assertEquals("rw-------", mode(file));
        assertThrows(java.nio.file.FileAlreadyExistsException.class, () -> PrivateFiles.createNew(file).close());

        Path victim = Files.writeString(dir.resolve("victim"), "keep");
        Path link = Files.createSymbolicLink(dir.resolve("planted.txt"), victim);
        assertThrows(PrivateFiles.Unsafe.class, () -> PrivateFiles.createNew(link).close());
        assertEquals("keep", Files.readString(victim));
        Path dangling = Files.createSymbolicLink(dir.resolve("dangling.txt"), dir.resolve("created-by-link"));
        assertThrows(PrivateFiles.Unsafe.class, () -> PrivateFiles.createNew(dangling).close());
        assertFalse(Files.exists(dir.resolve("created-by-link")), "a dangling link does not create its target");
    }

    @Test
    void replacingRemovesALinkItselfAndWritesAPrivateFile() throws Exception {
        Path victim = Files.writeString(dir.resolve("victim"), "keep");
        Path spool = Files.createSymbolicLink(dir.resolve("cdc-batch-0.rowbinary"), victim);
        try (OutputStream out = PrivateFiles.replace(spool)) {
            out.write("rows".getBytes(StandardCharsets.UTF_8));
        }
        assertEquals("keep", Files.readString(victim), "O_TRUNC never reached the link's target");
        assertFalse(Files.isSymbolicLink(spool));
        assertEquals("rows", Files.readString(spool));
        assertEquals("rw-------", mode(spool));
    }

    @Test
    void aLockFileIsOpenedWithoutFollowingALink() throws Exception {
        Path lock = dir.resolve("checkpoint.json.lock");
        try (FileChannel c = PrivateFiles.lockFile(lock)) {
            assertTrue(c.isOpen());
        }
        assertEquals("rw-------", mode(lock));
        try (FileChannel again = PrivateFiles.lockFile(lock)) {
            assertTrue(again.isOpen(), "an existing lock file opens again");
        }
        Path dangling = Files.createSymbolicLink(dir.resolve(".dpone-sink.lock"), dir.resolve("etc-passwd"));
        assertThrows(PrivateFiles.Unsafe.class, () -> PrivateFiles.lockFile(dangling).close());
        assertFalse(Files.exists(dir.resolve("etc-passwd")), "the dangling link's target was not created");
        Path victim = Files.writeString(dir.resolve("victim"), "keep");
        Path link = Files.createSymbolicLink(dir.resolve("x.lock"), victim);
        assertThrows(PrivateFiles.Unsafe.class, () -> PrivateFiles.lockFile(link).close());
        assertEquals("keep", Files.readString(victim));
    }

    @Test
    void aRandomTempFileIs0600AndOnlyRegularFilesAreInputs() throws Exception {
        Path t = PrivateFiles.tempFile(dir, ".x", ".tmp");
        assertEquals("rw-------", mode(t));
        assertTrue(PrivateFiles.regularInput(t));
        assertFalse(PrivateFiles.regularInput(dir));
        Path zero = Path.of("/dev/zero");
        if (Files.exists(zero)) {
            assertFalse(PrivateFiles.regularInput(zero));
            assertThrows(BoundedFile.NotRegular.class, () -> BoundedFile.read(zero, 10));
        }
        Path fifo = io.dpone.testing.Fifos.make(dir.resolve("events.json"));
        assertFalse(PrivateFiles.regularInput(fifo));
        assertThrows(BoundedFile.NotRegular.class, () -> BoundedFile.read(fifo, 10));
    }
}
