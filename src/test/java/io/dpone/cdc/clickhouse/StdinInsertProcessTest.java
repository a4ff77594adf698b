package io.dpone.cdc.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dpone process whose standard input holds data (a pipe, a redirected file, a cron job's input) still writes its
 * one-row ClickHouse records: the embedded engine appends such input to an {@code INSERT ... VALUES}, so the stores
 * insert with {@code INSERT ... SELECT} ({@code ClickHouseSql.insertRow}). Run in a child JVM, whose stdin the test
 * controls.
 */
@io.dpone.testing.ProcessTest
class StdinInsertProcessTest {
    @Test
    void oneRowStoresIgnoreDataOnStandardInput(@TempDir Path dir) throws Exception {
        Path input = dir.resolve("stdin.txt");
        Files.writeString(input, "not,for,the,engine\n{\"x\": 1}\n");
        Path out = dir.resolve("out.txt");
        int exit = io.dpone.testing.ChildJvm.main(StdinInsertMain.class).args(dir.resolve("chdb").toString())
            .stdin(input).mergeStderr().stdout(out).run(java.time.Duration.ofSeconds(120), "the child");
        List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
        assertEquals(0, exit, String.join("\n", lines));
        // the engine's behaviour the stores avoid: the VALUES row plus the piped lines, which do not parse
        assertTrue(lines.contains("values: refused"), String.join("\n", lines));
        assertTrue(lines.contains("checkpoint: 0x2A"), String.join("\n", lines));
        assertTrue(lines.contains("snapshot: 0x2A"), String.join("\n", lines));
    }
}
