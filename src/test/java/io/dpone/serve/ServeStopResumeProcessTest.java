package io.dpone.serve;

import static io.dpone.serve.ServeFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.testing.Manifests;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's story end to end, on the embedded default in forked processes: a serve is sent SIGTERM in the
 * middle of a full refresh, and the next start resumes the run id loading only the rows the stopped attempt had not
 * staged; the gates pass over the whole table.
 */
@io.dpone.testing.ProcessTest
class ServeStopResumeProcessTest {
    static final int ROWS = 60_000;

    @TempDir
    Path dir;

    @Test
    void aStoppedServeResumesTheRunLoadingOnlyTheMissingChunks() throws Exception {
        Path home = dir.resolve("home");
        Process seed = child(List.of("demo", "seed", "--rows", String.valueOf(ROWS), "--quiet"), home,
            dir.resolve("seed.txt"));
        assertEquals(0, io.dpone.testing.Await.exit(seed, Duration.ofSeconds(120), "demo seed"),
            () -> read(dir.resolve("seed.txt")));
        Path manifest = Manifests.write(dir.resolve("sales.batch.yaml"), """
            name: stop-resume
            source:
              type: mssql
              connection_ref: mssql_demo
              table: {schema: dbo, name: sales}
              options: {fetch_size: 2000, chunk_rows: 2000}
            sink:
              type: clickhouse
              connection_ref: clickhouse_default
              table: {schema: analytics, name: sales}
              staging: {schema: analytics}
              strategy: {mode: full_refresh}
              options: {lineage: false, route: typed_binary_streaming, order_by: [sale_id]}
            """);
        Path config = ServeFixture.config(dir, manifest, "{every: 1h, start_after: 100ms}", null);

        Path first = dir.resolve("first.txt");
        Process serve = child(List.of("serve", "--config", config.toString()), home, first);
        try {
            await(Duration.ofSeconds(120), "a few chunks of the run", () -> chunksDone(first) >= 3);
            serve.destroy(); // SIGTERM
            io.dpone.testing.Await.exit(serve, Duration.ofSeconds(60), "the serve after SIGTERM");
        } finally {
            serve.destroyForcibly();
        }
        String stopped = read(first);
        assertTrue(stopped.contains("serve.shutdown_interrupted") || stopped.contains(" interrupted"), stopped);

        Path second = dir.resolve("second.txt");
        Process again = child(List.of("serve", "--config", config.toString()), home, second);
        try {
            await(Duration.ofSeconds(120), "the resumed run to pass", () -> read(second).contains(" passed: "));
        } finally {
            again.destroy();
            io.dpone.testing.Await.exit(again, Duration.ofSeconds(60), "the second serve after SIGTERM");
        }
        String log = read(second);
        assertTrue(log.contains(" resumed"), log);
        Matcher m = Pattern.compile(" passed: (\\d+) rows, \\d+ chunks in \\d+ ms \\(resumed: (\\d+) rows in (\\d+) "
            + "chunks kept").matcher(log);
        assertTrue(m.find(), log);
        long loaded = Long.parseLong(m.group(1));
        long kept = Long.parseLong(m.group(2));
        assertTrue(kept >= 3 * 2000 && Long.parseLong(m.group(3)) >= 3, log);
        assertEquals(ROWS, loaded + kept, "every row once: loaded now or kept from the stopped attempt");
    }

    private static int chunksDone(Path log) {
        Matcher m = Pattern.compile("chunk (\\d+) done").matcher(read(log));
        int n = 0;
        while (m.find()) {
            n = Math.max(n, Integer.parseInt(m.group(1)));
        }
        return n;
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Process child(List<String> args, Path home, Path output) throws IOException {
        return io.dpone.testing.ChildJvm.cli().jvm("-Xmx1g", "-Djna.nosys=true").args(args)
            .withoutEnv("DPONE_RUNTIME_CONNECTION_CONTEXT").env("DPONE_HOME", home.toString()).mergeStderr()
            .stdout(output).start();
    }
}
