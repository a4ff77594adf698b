package io.dpone.cdc.mssql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The documented example {@code examples/cdc/handover/}: snapshot, hand-over, tick and materialize on the embedded
 * default (its own {@code DPONE_HOME}, in a child JVM), ending in a typed serving table that passes a full refresh's
 * gates against {@code dbo.sales}, with rows of the snapshot and of the stream.
 */
@io.dpone.testing.ProcessTest
class HandOverExampleTest {
    @TempDir
    Path home;

    @Test
    void theHandOverExampleEndsInAServingTableEqualToTheSource() throws Exception {
        Path out = home.resolve("example.out");
        ProcessBuilder pb = new ProcessBuilder(List.of(io.dpone.testing.ChildJvm.JAVA, io.dpone.testing.ChildJvm.tmpdir(), "-cp", System.getProperty("java.class.path"), HandOverExampleMain.class.getName()))
            .redirectErrorStream(true).redirectOutput(out.toFile());
        pb.environment().remove("DPONE_RUNTIME_CONNECTION_CONTEXT");
        pb.environment().put("DPONE_HOME", home.toString());
        pb.environment().put("DPONE_PROGRESS_INTERVAL", "0");
        Process p = pb.start();
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "the example ends");
        String log = Files.readString(out);
        assertEquals(0, p.exitValue(), log);
        for (String gate : List.of("row_count", "null_counts", "typed_hash")) {
            assertTrue(log.contains("gate " + gate + " passed"), gate + ": " + log);
        }
        assertTrue(log.contains("[snapshot, ") && log.contains("[update"), log);
    }
}
