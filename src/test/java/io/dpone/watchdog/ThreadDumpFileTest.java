package io.dpone.watchdog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 37: the watchdog's thread dump ({@code threads-<phase>-<second>.txt}, a predictable name) never writes
 * through a link planted at that name, and a dump it writes is 0600.
 */
class ThreadDumpFileTest {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
        .withZone(ZoneOffset.UTC);

    @TempDir
    Path dir;

    @Test
    void linksPlantedAtTheNextSecondsNamesAreNotFollowed() throws Exception {
        Path victim = Files.writeString(dir.resolve("victim"), "keep");
        Path diagnostics = Files.createDirectories(dir.resolve("diagnostics"));
        List<Path> links = new ArrayList<>();
        Instant now = Instant.now();
        for (int s = -1; s <= 5; s++) { // every name the dump may take in the next seconds
            links.add(Files.createSymbolicLink(diagnostics.resolve("threads-load_chunk-"
                + STAMP.format(now.plusSeconds(s)) + ".txt"), victim));
        }
        String name = ThreadDump.writeInto(diagnostics, "load_chunk");
        assertEquals(null, name, "the planted name is refused, not written through");
        assertEquals("keep", Files.readString(victim));
        for (Path link : links) {
            assertEquals(victim, Files.readSymbolicLink(link));
        }
        Path dangling = diagnostics.resolve("threads-cdc_apply-" + STAMP.format(Instant.now()) + ".txt");
        Files.createSymbolicLink(dangling, dir.resolve("created-through-link"));
        ThreadDump.writeInto(diagnostics, "cdc_apply");
        assertFalse(Files.exists(dir.resolve("created-through-link")), "a dangling link does not create its target");
    }

    @Test
    void aDumpIsAPrivateNewFile() throws Exception {
        String name = ThreadDump.writeInto(dir.resolve("runs"), "publish");
        assertNotNull(name);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
            dir.resolve("runs").resolve(name))));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("runs"))));
    }
}
