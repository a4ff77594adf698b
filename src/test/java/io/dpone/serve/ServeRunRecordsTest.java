package io.dpone.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.manifest.ManifestLoader;
import io.dpone.camel.DponeCamel;
import io.dpone.route.FullRefreshRunner;
import io.dpone.route.RunRecords;
import io.dpone.route.RunReport;
import io.dpone.testing.ChildJvm;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.camel.Processor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs of serve's batch jobs and of the Java API are recorded like {@code dpone run}'s (issue 36), next to their
 * evidence journals, and {@code dpone runs list} (its own JVM, {@code DPONE_HOME} the home here) shows them: a
 * passed job run, a job run the stop interrupted (resumable, by the next start), and a {@code Dpone.run}.
 */
@io.dpone.testing.ProcessTest
class ServeRunRecordsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    @TempDir
    Path dir;

    @Test
    void serveJobRunsAndJavaApiRunsAreListedByDponeRuns() throws Exception {
        String h2 = TestEngines.newH2Url();
        String db = TestEngines.newDatabase("serverec");
        Path home = dir.resolve("home");
        Path serveState = home.resolve("serve"); // serve's default state directory under DPONE_HOME
        ShutdownSignal signal = new ShutdownSignal();
        boolean[] stopAtGates = {false};
        Processor gates = exchange -> {
            if (stopAtGates[0]) {
                signal.stop();
                throw new IllegalStateException("the Camel context is shutting down");
            }
        };
        String passedId;
        String stoppedId;
        RunReport api;
        try (Connection source = DriverManager.getConnection(h2, "sa", "");
             ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            DemoSalesGenerator.seed(source, 500, 3);
            Path manifestFile = Manifests.fullRefresh(dir, "sales", db, null);
            var manifest = ManifestLoader.load(manifestFile);
            ServeConfig.Job job = new ServeConfig.Job("sales", manifestFile, manifest,
                new ServeConfig.Schedule(Duration.ofHours(1), Duration.ZERO, null));
            try (DponeCamel camel = DponeCamel.start(null, false)) {
                BatchJob batch = new BatchJob(job, new FullRefreshRunner(camel, TestEngines.context(h2), serveState),
                    new JobState(serveState), new TargetLocks(), new ShutdownSignal(), TransferStats::new);
                assertEquals("passed", batch.runOnce());
                passedId = batch.stats().getLastRunId();
            }
            try (DponeCamel camel = DponeCamel.start(null, false, Map.of("qualityGates", gates))) {
                stopAtGates[0] = true;
                BatchJob batch = new BatchJob(job, new FullRefreshRunner(camel, TestEngines.context(h2), serveState),
                    new JobState(serveState), new TargetLocks(), signal, TransferStats::new);
                assertEquals("interrupted", batch.runOnce());
                stoppedId = batch.stats().getLastRunId();
            }
            api = io.dpone.Dpone.run(manifestFile, "api-run-1", TestEngines.context(h2),
                io.dpone.route.ProgressListener.NONE, home);
            assertTrue(api.passed(), api.blockers().toString());
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
        assertTrue(Files.isDirectory(RunRecords.dir(serveState)), "serve's records lie in its state directory");

        JsonNode runs = runsList(home).path("runs");
        JsonNode passed = find(runs, passedId);
        assertEquals("passed", passed.path("status").asText(), passed.toString());
        assertEquals("dpone serve (job sales)", passed.path("by").asText());
        assertEquals(500, passed.path("loaded_rows").asInt());
        assertTrue(passed.path("evidence").asText().startsWith("$DPONE_HOME/serve/runs/"), passed.toString());
        JsonNode stopped = find(runs, stoppedId);
        assertEquals("interrupted", stopped.path("status").asText(), stopped.toString());
        assertTrue(stopped.path("resumable").asBoolean());
        assertTrue(stopped.path("next").asText().contains("the next start of dpone serve resumes it (job sales)"),
            stopped.toString());
        JsonNode viaApi = find(runs, "api-run-1");
        assertEquals("passed", viaApi.path("status").asText(), viaApi.toString());
        assertEquals("the Java API (io.dpone.Dpone.run)", viaApi.path("by").asText());
        assertTrue(viaApi.path("evidence").asText().startsWith("$DPONE_HOME/runs/"), viaApi.toString());
    }

    private static JsonNode find(JsonNode runs, String runId) {
        for (JsonNode r : runs) {
            if (runId.equals(r.path("run_id").asText())) {
                return r;
            }
        }
        throw new AssertionError("run " + runId + " not listed: " + runs);
    }

    /** {@code dpone runs list --format json} in its own JVM with {@code DPONE_HOME=home}. */
    private JsonNode runsList(Path home) throws Exception {
        Path out = dir.resolve("runs.out");
        Path err = dir.resolve("runs.err");
        ProcessBuilder pb = new ProcessBuilder(List.of(ChildJvm.JAVA, ChildJvm.tmpdir(), "-cp",
            System.getProperty("java.class.path"), "io.dpone.cli.DponeCli", "runs", "list", "--format", "json"))
            .redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().put("DPONE_HOME", home.toString());
        Process p = pb.start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "dpone runs list ended");
        assertEquals(0, p.exitValue(), Files.readString(err, StandardCharsets.UTF_8));
        return JSON.readTree(Files.readString(out, StandardCharsets.UTF_8));
    }
}
