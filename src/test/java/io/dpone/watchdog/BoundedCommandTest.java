package io.dpone.watchdog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.cdc.mssql.H2CdcFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No dpone command hangs silently, checked on real processes: a live CDC tick whose source never answers ends with
 * {@code runtime.phase_timeout} and a thread dump in its output directory; a JVM whose guard cannot run is ended by
 * the kernel's alarm; SIGTERM in the middle of a run ends it promptly with {@code runtime.interrupted}, and the same
 * run id then completes it.
 */
@io.dpone.testing.ProcessTest
class BoundedCommandTest {
    @TempDir
    Path dir;

    @Test
    void aLiveTickWhoseSourceNeverAnswersEndsWithATypedErrorAndAThreadDump() throws Exception {
        String url = "jdbc:h2:file:" + dir.resolve("source").toAbsolutePath()
            + ";MODE=MSSQLServer;DATABASE_TO_UPPER=FALSE;CASE_INSENSITIVE_IDENTIFIERS=TRUE";
        try (H2CdcFixture fx = new H2CdcFixture(url); Statement st = fx.connection.createStatement()) {
            fx.txn().insert(H2CdcFixture.row(1, "new", "1.00", null, null)).commit();
            st.execute("DROP ALIAS sys.fn_cdc_get_max_lsn");
            st.execute("CREATE ALIAS sys.fn_cdc_get_max_lsn FOR \"" + NeverAnsweringSource.class.getName()
                + ".maxLsn\"");
        }
        Path context = Files.writeString(dir.resolve("context.yaml"), """
            connections:
              mssql-prod: {type: mssql, url: "%s", user: sa}
              clickhouse-prod: {type: clickhouse, embedded: true, options: {path: "%s"}}
            """.formatted(url, dir.resolve("chdb")));
        Path out = dir.resolve("out");
        long t0 = System.nanoTime();
        // 20 s: the bound covers the JVM's own start phase too, which a loaded 2-core machine once took over 10 s for
        Run r = run(Map.of("DPONE_RUNTIME_CONNECTION_CONTEXT", context.toString(), "DPONE_PHASE_TIMEOUT", "20s"), 150,
            "ops", "cdc-runtime-run", "--mode", "live", "--source", "mssql", "--sink", "clickhouse", "--backend",
            "mssql_cdc", "--pipeline-name", "orders-cdc", "--source-schema", "dbo", "--source-table", "orders",
            "--target-dataset", "analytics.orders_cdc", "--unique-key", "order_id", "--source-connection-id",
            "mssql-prod", "--sink-connection-id", "clickhouse-prod", "--output-dir", out.toString(), "--format",
            "json");
        long seconds = (System.nanoTime() - t0) / 1_000_000_000;
        assertEquals(1, r.exit, r.stderr);
        assertEquals("", r.stdout, "a failure leaves stdout empty");
        JsonNode doc = new ObjectMapper().readTree(r.stderr.substring(r.stderr.indexOf('{')));
        JsonNode blocker = doc.path("blockers").get(0);
        assertEquals("runtime.phase_timeout", blocker.path("code").asText(), r.stderr);
        String named = blocker.path("details").path("thread_dump").asText();
        assertTrue(blocker.path("subject").asText().startsWith("cdc_runtime_tick/"), () -> blocker + "\n"
            + (Files.exists(out.resolve(named)) ? read(out.resolve(named)) : "no dump in the output directory"));
        assertEquals(20, blocker.path("details").path("bound_seconds").asInt());
        String dumpName = blocker.path("details").path("thread_dump").asText();
        assertFalse(r.stderr.contains(dir.toString()), "no local path in the failure: " + r.stderr);
        String dump = Files.readString(out.resolve(dumpName));
        assertTrue(dump.contains("NeverAnsweringSource.maxLsn"), "the dump shows where it hangs:\n" + dump);
        assertTrue(seconds < 100, "ended in " + seconds + " s");
    }

    @Test
    void aJvmWhoseGuardCannotRunIsEndedByTheKernelsAlarm() throws Exception {
        int exit = io.dpone.testing.ChildJvm.main(HardBoundMain.class).args(dir.toString()).mergeStderr()
            .stdout(dir.resolve("hard.txt")).run(Duration.ofSeconds(60), "the JVM the alarm must end");
        assertEquals(128 + 14, exit, "ended by SIGALRM");
        String out = Files.readString(dir.resolve("hard.txt"));
        assertTrue(out.contains("armed") && !out.contains("still alive"), out);
    }

    @Test
    void sigtermInTheMiddleOfARunEndsItPromptlyAndTheSameRunIdCompletesIt() throws Exception {
        Map<String, String> env = Map.of("DPONE_HOME", dir.resolve("home").toString());
        Run seed = run(env, 180, "demo", "seed");
        assertEquals(0, seed.exit, seed.stderr);
        String manifest = Files.readString(Path.of("examples/batch/embedded-full-refresh.batch.yaml"))
            .replace("fetch_size: 10000", "fetch_size: 1000").replace("chunk_rows: 100000", "chunk_rows: 1000");
        // relative, as a user types it: the resume command names it as given (an absolute path would be redacted)
        Path m = Path.of("").toAbsolutePath().relativize(Files.writeString(dir.resolve("run.batch.yaml"), manifest)
            .toAbsolutePath());
        Process p = start(env, dir.resolve("term"), "run", m.toString(), "--run-id", "term-1", "--format", "json");
        Path spool = dir.resolve("home").resolve("spool");
        awaitChunk(p, spool, dir.resolve("term.err"));
        long t0 = System.nanoTime();
        p.destroy(); // SIGTERM
        int exit = io.dpone.testing.Await.exit(p, Duration.ofSeconds(30), "the run after SIGTERM");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(143, exit, read(dir.resolve("term.err")));
        assertEquals("", read(dir.resolve("term.out")));
        // one document on stderr: the run's report, its only blocker the stop (not what failed while stopping)
        JsonNode stopped = new ObjectMapper().readTree(read(dir.resolve("term.err")));
        assertEquals("dpone.full_refresh_run.v1", stopped.path("schema").asText(), read(dir.resolve("term.err")));
        assertEquals(1, stopped.path("blockers").size(), read(dir.resolve("term.err")));
        assertEquals("runtime.interrupted", stopped.path("blockers").get(0).path("code").asText());
        assertEquals("dpone run " + m + " --run-id term-1 --format json", stopped.path("blockers").get(0)
            .path("details").path("resume_command").asText());
        Run resumed = run(env, 180, "run", m.toString(), "--run-id", "term-1", "--format", "json");
        assertEquals(0, resumed.exit, resumed.stderr);
        JsonNode report = new ObjectMapper().readTree(resumed.stdout);
        assertTrue(report.path("passed").asBoolean());
        // every row once: loaded now, or kept from the staging table the stopped attempt left (chunk-level resume)
        assertEquals(100_000, report.path("loaded_rows").asLong()
            + report.path("resumed_staging").path("rows_kept").asLong(), resumed.stdout);
        assertEquals(100_000, report.path("source_rows").asLong(), "the gates cover the whole table");
        assertTrue(ms < 30_000, "stopped in " + ms + " ms");

        // text: one paragraph (what stopped, what is kept, the command), no JSON, no log line, no second failure
        assertFalse(hasChunks(spool), "the passed run left no spooled chunk");
        Process text = start(env, dir.resolve("text"), "run", m.toString(), "--run-id", "term-2", "-q");
        awaitChunk(text, spool, dir.resolve("text.err"));
        text.destroy();
        io.dpone.testing.Await.exit(text, Duration.ofSeconds(30), "the run after SIGTERM");
        String paragraph = read(dir.resolve("text.err"));
        assertTrue(paragraph.startsWith("run term-2 stopped by a signal while loading dbo.sales into analytics.sales"),
            paragraph);
        assertTrue(paragraph.contains("Nothing was published: analytics.sales is unchanged."), paragraph);
        assertTrue(paragraph.endsWith("To resume: dpone run " + m + " --run-id term-2 -q\n")
            || paragraph.endsWith("To resume: dpone run " + m + " --run-id term-2\n"), paragraph);
        for (String noise : List.of("{", "WARN", "INFO", "FailedRunProcessor", "source.read_failed", "internal_error")) {
            assertFalse(paragraph.contains(noise), noise + " in: " + paragraph);
        }
        Run runs = run(env, 60, "runs", "show", "term-2", "--format", "json");
        JsonNode record = new ObjectMapper().readTree(runs.stdout).path("runs").get(0);
        assertEquals("interrupted", record.path("status").asText(), runs.stdout + runs.stderr);
        assertTrue(record.path("resumable").asBoolean());
        assertTrue(record.path("next").asText().contains("dpone run " + m + " --run-id term-2"), record.toString());
        Run textResumed = run(env, 180, "run", m.toString(), "--run-id", "term-2", "-q");
        assertEquals(0, textResumed.exit, textResumed.stderr);
        assertTrue(textResumed.stdout.matches("(?s).*\n  resumed: [0-9,]+ rows in [0-9]+ chunk\\(s\\) kept from the "
            + "interrupted attempt, [0-9,]+ loaded now\n.*"), textResumed.stdout);
    }

    /** Until the running {@code p} has spooled a chunk (then it is in the middle of its load). */
    private static void awaitChunk(Process p, Path spool, Path stderr) {
        io.dpone.testing.Await.until(Duration.ofSeconds(120), "a spooled chunk", () -> {
            assertTrue(p.isAlive(), () -> "the run ended before it could be interrupted: " + read(stderr));
            try {
                return hasChunks(spool);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    private static boolean hasChunks(Path spool) throws IOException {
        if (!Files.isDirectory(spool)) {
            return false;
        }
        try (Stream<Path> files = Files.walk(spool)) {
            return files.filter(Files::isRegularFile).count() > 1;
        }
    }

    private record Run(int exit, String stdout, String stderr) {
    }

    private Run run(Map<String, String> env, int boundSeconds, String... args) throws Exception {
        Path base = dir.resolve("cmd-" + System.nanoTime());
        int exit = io.dpone.testing.Await.exit(start(env, base, args), Duration.ofSeconds(boundSeconds),
            "dpone " + String.join(" ", args));
        return new Run(exit, read(Path.of(base + ".out")), read(Path.of(base + ".err")));
    }

    private static Process start(Map<String, String> env, Path base, String... args) throws IOException {
        io.dpone.testing.ChildJvm dpone = io.dpone.testing.ChildJvm.cli().jvm("-Xmx1g").args(args)
            .withoutEnv("DPONE_RUNTIME_CONNECTION_CONTEXT").withoutEnv("DPONE_PHASE_TIMEOUT")
            .stdout(Path.of(base + ".out")).stderr(Path.of(base + ".err"));
        env.forEach(dpone::env);
        return dpone.start();
    }


    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "";
        }
    }
}
