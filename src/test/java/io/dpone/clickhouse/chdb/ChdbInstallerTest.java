package io.dpone.clickhouse.chdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.EmbeddedClickHouseEndpoint;
import io.dpone.error.DponeException;
import io.dpone.testing.TestEngines;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A missing, tampered or conflicting engine is a clear, typed error, never a crash. */
@io.dpone.testing.EngineTest
class ChdbInstallerTest {
    @TempDir
    Path dir;

    @Test
    void explicitLibraryThatDoesNotExistIsAClearError() {
        System.setProperty("dpone.chdb.library", dir.resolve("no-such-libchdb.so").toString());
        try {
            ChdbException e = assertThrows(ChdbException.class, () -> new ChdbInstaller(dir).ensureInstalled());
            assertTrue(e.getMessage().contains("does not name an existing libchdb.so"), e.getMessage());
        } finally {
            System.clearProperty("dpone.chdb.library");
        }
    }

    @Test
    void aTamperedPackageFailsItsIntegrityCheck() throws Exception {
        Path fake = Files.write(dir.resolve("fake.tgz"), new byte[] {1, 2, 3});
        ChdbException e = assertThrows(ChdbException.class, () -> ChdbInstaller.verifyIntegrity(fake));
        assertTrue(e.getMessage().contains("integrity"), e.getMessage());
    }

    @Test
    void aSecondDataDirectoryInOneProcessIsRefusedWithABlocker() {
        TestEngines.clickHousePath(); // the shared engine is open
        DponeException e = assertThrows(DponeException.class,
            () -> EmbeddedClickHouseEndpoint.open(dir.resolve("another-data-dir")));
        assertEquals("sink.embedded_engine_unavailable", e.blockers().get(0).code());
    }
}
