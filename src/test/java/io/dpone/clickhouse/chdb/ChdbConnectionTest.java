package io.dpone.clickhouse.chdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.testing.TestEngines;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The JVM keeps working after the embedded engine connects: HotSpot turns SIGSEGV into NullPointerException and
 * StackOverflowError, which only works when chDB's signal handlers have been replaced by the JVM's again.
 */
@io.dpone.testing.EngineTest
class ChdbConnectionTest {
    private static int depth;

    @Test
    void jvmSurvivesNullChecksStackOverflowsQueryErrorsAndGcAfterConnect() {
        Path lib = ChdbInstaller.forUserCache().ensureInstalled();
        try (ChdbConnection c = ChdbConnection.open(lib, TestEngines.clickHousePath())) {
            assertEquals("2\n", new String(c.query("SELECT 1 + 1", "TSV"), StandardCharsets.UTF_8));
            int npes = 0;
            int overflows = 0;
            List<byte[]> garbage = new ArrayList<>();
            for (int round = 0; round < 50; round++) {
                assertThrows(ChdbException.class, () -> c.query("SELECT * FROM no_such_table", "TSV"));
                String s = round % 2 == 0 ? null : "x";
                try {
                    s.length();
                } catch (NullPointerException expected) {
                    npes++;
                }
                try {
                    recurse();
                } catch (StackOverflowError expected) {
                    overflows++;
                }
                garbage.add(new byte[1 << 20]);
                if (garbage.size() > 8) {
                    garbage.clear();
                    System.gc();
                }
            }
            assertEquals(25, npes);
            assertEquals(50, overflows);
            assertTrue(new String(c.query("SELECT count() FROM numbers(1000)", "TSV"), StandardCharsets.UTF_8)
                .startsWith("1000"));
        }
    }

    @Test
    void aSecondConnectOnTheSamePathAlsoRestoresTheHandlers() {
        Path lib = ChdbInstaller.forUserCache().ensureInstalled();
        try (ChdbConnection a = ChdbConnection.open(lib, TestEngines.clickHousePath());
             ChdbConnection b = ChdbConnection.open(lib, TestEngines.clickHousePath())) {
            Object nothing = null;
            assertThrows(NullPointerException.class, () -> nothing.hashCode());
            assertEquals("1\n", new String(b.query("SELECT 1", "TSV"), StandardCharsets.UTF_8));
            assertEquals("1\n", new String(a.query("SELECT 1", "TSV"), StandardCharsets.UTF_8));
        }
    }

    private static void recurse() {
        depth++;
        recurse();
    }
}
