package io.dpone.cdc.mssql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
        int exit = io.dpone.testing.ChildJvm.main(HandOverExampleMain.class).withoutEnv("DPONE_RUNTIME_CONNECTION_CONTEXT")
            .env("DPONE_HOME", home.toString()).env("DPONE_PROGRESS_INTERVAL", "0").mergeStderr().stdout(out)
            .run(java.time.Duration.ofSeconds(300), "the example");
        String log = Files.readString(out);
        assertEquals(0, exit, log);
        for (String gate : List.of("row_count", "null_counts", "typed_hash")) {
            assertTrue(log.contains("gate " + gate + " passed"), gate + ": " + log);
        }
        assertTrue(log.contains("[snapshot, ") && log.contains("[update"), log);
    }
}
