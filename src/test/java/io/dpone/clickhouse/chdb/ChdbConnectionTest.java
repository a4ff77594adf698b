package io.dpone.clickhouse.chdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ChdbConnectionTest {
    @Test
    void queriesAndSurvivesNullChecksAfterConnect() throws Exception {
        Path lib = ChdbInstaller.forUserCache().ensureInstalled();
        Path data = io.dpone.testing.TestEngines.clickHousePath(); // one data path per JVM
        try (ChdbConnection c = ChdbConnection.open(lib, data)) {
            byte[] r = c.query("SELECT 1 + 1", "TSV");
            assertEquals("2\n", new String(r, StandardCharsets.UTF_8));
            assertThrows(ChdbException.class, () -> c.query("SELECT * FROM no_such_table", "TSV"));
            // implicit null checks in the JVM use SIGSEGV; this would kill the JVM without the handler restore
            for (int i = 0; i < 1000; i++) {
                String s = i % 2 == 0 ? null : "x";
                try {
                    s.length();
                } catch (NullPointerException expected) {
                    // expected
                }
            }
            System.gc();
        }
    }
}
