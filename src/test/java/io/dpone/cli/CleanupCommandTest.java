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
import java.util.List;
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

    /**
     * Issue 36 item 3: with {@code --manifest}, the object-storage run prefixes of the manifest's {@code uri_prefix}
     * template are examined like staging tables: an interrupted run's prefix is kept within the window, listed past
     * it, and deleted as a whole only with {@code --apply}; a key outside the template is never touched.
     */
    @Test
    void theObjectPrefixOfARunThatWillNotResumeIsDeletedWithApplyAndNothingElse() throws Exception {
        String runId = "cleanup-obj-" + System.nanoTime();
        String other = runId + "-other";
        Path context = Files.writeString(dir.resolve("context.yaml"), """
            connections:
              clickhouse_test: {type: clickhouse, embedded: true, options: {path: "%s"}}
              s3_test: {type: s3, embedded: true, options: {path: "%s"}}
            """.formatted(TestEngines.clickHousePath(), dir.resolve("s3")));
        System.setProperty(ConnectionContext.PROPERTY, context.toString());
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            db = TestEngines.newAtomicDatabase(ch, "cleanup_obj");
        }
        Path manifest = Files.writeString(dir.resolve("pull.batch.yaml"), """
            name: pull
            source:
              type: mssql
              connection_ref: mssql_demo
              table: {schema: dbo, name: sales}
              options:
                native_transfer:
                  snapshot:
                    columnar_fast_path:
                      object_storage:
                        uri_prefix: s3://dpone-stage/pulls/{run_id}/
                        runtime_access: {connection_type: context, connection_id: s3_test}
            sink:
              type: clickhouse
              connection_ref: clickhouse_test
              table: {schema: %s, name: sales}
              strategy: {mode: full_refresh}
              options: {route: object_storage_pull.chunked}
            """.formatted(db));
        Path chunk = Files.writeString(dir.resolve("chunk.parquet"), "not really parquet");
        try (io.dpone.storage.StagingStore s = io.dpone.storage.StagingStore.open(ConnectionContext.fromEnvironment()
                .resolve("s3_test", io.dpone.connect.ConnectionType.S3, "test"), "dpone-stage")) {
            for (String key : List.of("pulls/" + runId + "/chunk-000001.parquet", "pulls/" + runId
                    + "/chunk-000002.parquet", "pulls/" + other + "/chunk-000001.parquet", "elsewhere/keep.parquet")) {
                s.store().put(key, chunk);
            }
        }
        Path records = io.dpone.route.RunRecords.dir(EmbeddedDefaults.home());
        Files.createDirectories(records);
        Files.writeString(records.resolve(io.dpone.route.RunRecords.fileName("p", runId)), """
            {"schema": "dpone.run_record.v1", "run_id": "%s", "pipeline": "p", "status": "interrupted",
             "resumable": true, "next": "resume: dpone run m.yaml --run-id %s", "finished_at": "%s"}
            """.formatted(runId, runId, Instant.now()));

        JsonNode within = cleanup("--manifest", manifest.toString(), "--older-than", "1h");
        assertEquals(2, prefixes(within.path("kept")).size(), within.toString());
        assertFalse(within.has("not_covered"), "object prefixes are covered with --manifest");

        Thread.sleep(2_100); // the age under test: S3 times have whole seconds, and "1s" must have passed
        JsonNode listed = cleanup("--manifest", manifest.toString(), "--older-than", "1s");
        assertEquals(List.of("s3_test:dpone-stage/pulls/" + other + "/", "s3_test:dpone-stage/pulls/" + runId + "/"),
            prefixes(listed.path("candidates")).stream().sorted().toList(), listed.toString());
        JsonNode applied = cleanup("--manifest", manifest.toString(), "--older-than", "1s", "--apply");
        JsonNode mine = find(applied, "s3_test:dpone-stage/pulls/" + runId + "/");
        assertEquals(2, mine.path("objects_deleted").asInt(), applied.toString());
        assertEquals("interrupted", mine.path("run_status").asText());
        try (io.dpone.storage.StagingStore s = io.dpone.storage.StagingStore.open(ConnectionContext.fromEnvironment()
                .resolve("s3_test", io.dpone.connect.ConnectionType.S3, "test"), "dpone-stage")) {
            assertEquals(List.of("elsewhere/keep.parquet"), s.store().list(""), "only the run prefixes went");
        }
        CliRun bad = CliRun.of("ops", "cleanup", "--sink-connection-id", "clickhouse_test", "--manifest",
            dir.resolve("missing.batch.yaml").toString(), "--format", "json");
        assertEquals(1, bad.exitCode(), "a manifest that cannot be read stops the command before anything goes");
    }

    private static List<String> prefixes(JsonNode items) {
        List<String> out = new java.util.ArrayList<>();
        items.forEach(i -> {
            if (i.path("kind").asText().equals("object_prefix")) {
                out.add(i.path("name").asText());
            }
        });
        return out;
    }
}
