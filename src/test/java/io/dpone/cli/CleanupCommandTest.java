package io.dpone.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.TableAdmin;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.EmbeddedDefaults;
import io.dpone.route.RunPlan;
import io.dpone.route.StagingNames;
import io.dpone.testing.CliRun;
import io.dpone.testing.TestEngines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dpone ops cleanup} (issue 36 item 3): the staging table of an interrupted run that was never resumed is
 * listed, kept while it may still resume, and dropped only with {@code --apply}; a fresh one is never a candidate.
 */
@io.dpone.testing.EngineTest
class CleanupCommandTest {
    @TempDir
    Path dir;
    String db;

    @AfterEach
    void tearDown() {
        System.clearProperty(ConnectionContext.PROPERTY);
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
    }

    @Test
    void theStagingOfAnInterruptedRunNeverResumedIsListedThenDroppedWithApply() throws Exception {
        String runId = "cleanup-" + System.nanoTime();
        String staging = StagingNames.staging("sales", RunPlan.keyOf(runId));
        String live = StagingNames.staging("sales", RunPlan.keyOf(runId + "-live"));
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            db = TestEngines.newAtomicDatabase(ch, "cleanup");
            for (String t : new String[] {staging, live}) {
                ch.execute("CREATE TABLE " + ClickHouseSql.table(db, t) + " (id Int64) ENGINE = MergeTree ORDER BY id");
                ch.execute("INSERT INTO " + ClickHouseSql.table(db, t) + " SELECT number FROM numbers(10)");
            }
        }
        // the interrupted run's record, as dpone run leaves it
        Path records = io.dpone.route.RunRecords.dir(EmbeddedDefaults.home());
        Files.createDirectories(records);
        Files.writeString(records.resolve(io.dpone.route.RunRecords.fileName("p", runId)), """
            {"schema": "dpone.run_record.v1", "run_id": "%s", "pipeline": "p", "status": "interrupted",
             "resumable": true, "next": "resume: dpone run m.yaml --run-id %s", "finished_at": "%s"}
            """.formatted(runId, runId, Instant.now()));
        Path context = Files.writeString(dir.resolve("context.yaml"), """
            connections:
              clickhouse_test: {type: clickhouse, embedded: true, options: {path: "%s"}}
            """.formatted(TestEngines.clickHousePath()));
        System.setProperty(ConnectionContext.PROPERTY, context.toString());

        // within the window: both kept (one may be live, the other may resume)
        JsonNode kept = cleanup("--older-than", "1h");
        assertEquals(0, kept.path("candidates").size(), kept.toString());
        assertEquals(2, kept.path("kept").size(), kept.toString());

        Thread.sleep(1_100); // the age under test: "untouched for longer than 1s" needs a second to pass
        // older than the window: the interrupted run's staging is a candidate, listed only
        JsonNode listed = cleanup("--older-than", "1s");
        assertEquals(2, listed.path("candidates").size(), listed.toString());
        JsonNode first = find(listed, db + "." + staging);
        assertEquals(runId, first.path("run_id").asText());
        assertEquals("interrupted", first.path("run_status").asText());
        assertTrue(first.path("action").asText().startsWith("would drop"), first.toString());
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            assertTrue(new TableAdmin(ch).exists(db, staging), "listing drops nothing");
        }

        // --apply drops exactly the candidates
        JsonNode applied = cleanup("--older-than", "1s", "--apply");
        assertEquals("dropped", find(applied, db + "." + staging).path("action").asText(), applied.toString());
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            assertFalse(new TableAdmin(ch).exists(db, staging));
            assertFalse(new TableAdmin(ch).exists(db, live));
        }
        assertEquals(0, cleanup("--older-than", "1s").path("candidates").size());
        assertEquals(2, CliRun.of("ops", "cleanup", "--older-than", "soon").exitCode(), "a bad duration is usage");
    }

    private JsonNode cleanup(String... more) throws Exception {
        String[] args = new String[6 + more.length];
        System.arraycopy(new String[] {"ops", "cleanup", "--sink-connection-id", "clickhouse_test", "--database", db},
            0, args, 0, 6);
        System.arraycopy(more, 0, args, 6, more.length);
        String[] json = java.util.Arrays.copyOf(args, args.length + 2);
        json[args.length] = "--format";
        json[args.length + 1] = "json";
        CliRun r = CliRun.of(json);
        assertEquals(0, r.exitCode(), r.stderr());
        JsonNode doc = new ObjectMapper().readTree(r.stdout());
        assertEquals(CleanupCommand.SCHEMA, doc.path("schema").asText());
        return doc;
    }

    private static JsonNode find(JsonNode doc, String name) {
        for (JsonNode c : doc.path("candidates")) {
            if (c.path("name").asText().equals(name)) {
                return c;
            }
        }
        throw new AssertionError(name + " not a candidate: " + doc);
    }
}
