package io.dpone.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.connect.EmbeddedDefaults;
import io.dpone.demo.DemoSalesGenerator;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18 item 4, the channel audit: every mode of the CLI, run as a user runs it (its own JVM, so what a native
 * library or java.util.logging writes to file descriptor 2 is seen too), with planted secrets (a password file, a
 * password in the environment, S3 keys), planted endpoints (a dead port, an unknown host name, a listener that speaks
 * garbage) and an absolute temporary path, and a failure driven through each third party: the ClickHouse client
 * (dead server port, unknown host), H2 over JDBC (a URL to a database that does not exist), mssql-jdbc (a listener
 * that is no SQL Server), the AWS SDK (S3 at a dead endpoint with planted keys) and the embedded engine (a data
 * directory whose metadata names an absolute path the engine cannot find). For each: stdout and stderr (and the
 * evidence files, the serve's HTTP bodies) hold no planted secret, endpoint or path and no Java stack trace; the
 * failure is one typed blocker code; in {@code --format json} stderr is exactly one JSON document, under
 * {@code dpone serve --log-format json} every line is one JSON event.
 */
@io.dpone.testing.ProcessTest
class ChannelAuditTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String NONCE = Long.toString(ThreadLocalRandom.current().nextLong(1L << 40, 1L << 41), 36);
    static final String PASSWORD = "Audit-Pl4nted-Pw-" + NONCE;
    static final String ENV_PASSWORD = "Audit-Env-Secr3t-" + NONCE;
    static final String S3_KEY_ID = "AKIA" + ("AUDIT" + NONCE.toUpperCase() + "XXXXXXXXXXXXXXXX").substring(0, 16);
    static final String S3_SECRET = "Audit-S3-Secr3t-" + NONCE;
    static final String HOST = "dpone-audit-" + NONCE + ".invalid";
    private static final Pattern STACK_FRAME = Pattern.compile("(?m)^\\s*at [\\w$.]+\\(|Caused by: |Exception in thread");
    private static final Pattern TEXT_BLOCKER = Pattern.compile("(?m)^\\s+([a-z_]+\\.[a-z_.]+) at ");

    @TempDir
    static Path dir;
    static int deadPort;
    static Path passwordFile;
    static String sourceUrl;
    static ServerSocket garbage;

    @BeforeAll
    static void plant() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            deadPort = s.getLocalPort();
        }
        passwordFile = Files.writeString(Files.createDirectories(dir.resolve("secrets")).resolve("pw"),
            PASSWORD + "\n");
        sourceUrl = EmbeddedDefaults.h2Url(dir.resolve("source").resolve("demo"));
        try (Connection c = DriverManager.getConnection(sourceUrl, "sa", PASSWORD)) {
            DemoSalesGenerator.seed(c, 200, 3);
        }
        garbage = new ServerSocket(0);
        Thread answer = new Thread(() -> {
            while (!garbage.isClosed()) {
                try (Socket s = garbage.accept(); InputStream in = s.getInputStream();
                     OutputStream out = s.getOutputStream()) {
                    in.read(new byte[512]);
                    out.write("HTTP/1.0 400 no SQL Server here\r\n\r\n".repeat(8).getBytes(StandardCharsets.US_ASCII));
                } catch (IOException e) {
                    // closed at the end of the class, or the driver hung up
                }
            }
        }, "audit-garbage-listener");
        answer.setDaemon(true);
        answer.start();
    }

    @AfterAll
    static void stop() throws IOException {
        if (garbage != null) {
            garbage.close();
        }
    }

    // ---------------------------------------------------------------------------------------------------------------

    @Test
    void runJsonIntoADeadClickHouseServerIsOneTypedDocument() throws Exception {
        Proc p = dpone(context(Map.of("clickhouse_default", server("127.0.0.1", deadPort))),
            "run", manifest("clickhouse_default").toString(), "--run-id", "audit-1", "--format", "json");
        assertEquals(1, p.exit, p.stderr);
        assertEquals("", p.stdout);
        assertEquals(List.of("connection.failed"), codes(jsonDocument(p.stderr)));
        assertClean(p.stderr);
    }

    @Test
    void runTextIntoAnUnknownClickHouseHostAndCheckAndPlanAreClean() throws Exception {
        Path context = context(Map.of("clickhouse_default", server(HOST, 8123)));
        Proc p = dpone(context, "run", manifest("clickhouse_default").toString(), "--run-id", "audit-2");
        assertEquals(1, p.exit, p.stderr);
        assertEquals("", p.stdout);
        assertEquals(List.of("connection.failed"), textCodes(p.stderr));
        assertClean(p.stdout + p.stderr);
        for (String command : List.of("check", "plan")) {
            Proc q = dpone(context, command, manifest("clickhouse_default").toString(), "--format", "json");
            assertEquals(0, q.exit, q.stderr);
            assertClean(q.stdout + q.stderr);
        }
    }

    @Test
    void aMissingH2SourceIsOneTypedFailureInRunAndDemo() throws Exception {
        String missing = "jdbc:h2:" + dir.resolve("nowhere").resolve("db") + ";IFEXISTS=TRUE;MODE=MSSQLServer";
        Path context = context(Map.of("mssql_demo", source(missing), "clickhouse_default", embedded("engine-h2")));
        Proc run = dpone(context, "run", manifest("clickhouse_default").toString(), "--run-id", "audit-3",
            "--format", "json");
        assertEquals(1, run.exit, run.stderr);
        assertEquals(List.of("connection.failed"), codes(jsonDocument(run.stderr)));
        assertClean(run.stdout + run.stderr);
        Proc demo = dpone(context, "demo", "seed", "--rows", "10", "-q");
        assertEquals(1, demo.exit, demo.stderr);
        assertEquals(List.of("connection.failed"), textCodes(demo.stderr));
        assertClean(demo.stdout + demo.stderr);
        try (Stream<Path> files = Files.list(dir.resolve("nowhere").getParent())) {
            assertTrue(files.noneMatch(f -> f.toString().endsWith(".trace.db")), "no H2 trace file");
        }
    }

    /** mssql-jdbc logs a failed pre-login through java.util.logging, naming host and port: never on stderr. */
    @Test
    void aListenerThatIsNoSqlServerIsOneTypedFailureWithoutTheDriversLog() throws Exception {
        String url = "jdbc:sqlserver://127.0.0.1:" + garbage.getLocalPort()
            + ";databaseName=audit;encrypt=false;loginTimeout=5";
        Path context = context(Map.of("mssql_demo", source(url), "clickhouse_default", embedded("engine-mssql")));
        Proc p = dpone(context, "run", manifest("clickhouse_default").toString(), "--run-id", "audit-4",
            "--format", "json");
        assertEquals(1, p.exit, p.stderr);
        assertEquals(List.of("connection.failed"), codes(jsonDocument(p.stderr)));
        assertClean(p.stdout + p.stderr, ":" + garbage.getLocalPort(), "port " + garbage.getLocalPort());
        Proc verify = dpone(context, "ops", "cdc-verify", "--pipeline-name", "orders-cdc", "--backend", "mssql_cdc",
            "--source-schema", "dbo", "--source-table", "orders", "--cdc-dataset", "analytics.orders_cdc",
            "--target-dataset", "serving.orders", "--unique-key", "order_id", "--source-connection-id", "mssql_demo",
            "--sink-connection-id", "clickhouse_default", "--output-dir", dir.resolve("verify").toString(),
            "--format", "json");
        assertEquals(1, verify.exit, verify.stderr);
        assertEquals(List.of("connection.failed"), codes(jsonDocument(verify.stderr)));
        assertClean(verify.stdout + verify.stderr, ":" + garbage.getLocalPort(), "port " + garbage.getLocalPort());
    }

    @Test
    void cdcTickAndMaterializationIntoADeadClickHouseServer() throws Exception {
        Path context = context(Map.of("clickhouse_default", server("127.0.0.1", deadPort)));
        Path cdc = Files.createDirectories(dir.resolve("cdc"));
        Files.copy(Path.of("examples/cdc/orders/events.json"), cdc.resolve("events.json"),
            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Proc tick = dpone(context, "ops", "cdc-runtime-run", "--source", "mssql", "--sink", "clickhouse",
            "--backend", "mssql_cdc", "--pipeline-name", "orders-cdc", "--source-schema", "dbo", "--source-table",
            "orders", "--target-dataset", "analytics.orders_cdc", "--unique-key", "order_id",
            "--events-json", cdc.resolve("events.json").toString(), "--checkpoint-json",
            cdc.resolve("checkpoint.json").toString(), "--output-dir", cdc.toString(),
            "--sink-connection-id", "clickhouse_default", "--format", "json");
        assertEquals(1, tick.exit, tick.stderr);
        assertEquals(List.of("connection.failed"), codes(jsonDocument(tick.stderr)));
        assertClean(tick.stdout + tick.stderr);
        assertClean(Files.readString(cdc.resolve("cdc_runtime_run.json")));
        Proc materialize = dpone(context, "ops", "cdc-materialize-clickhouse", "--cdc-dataset",
            "analytics.orders_cdc", "--target-dataset", "serving.orders", "--unique-key", "order_id",
            "--sink-connection-id", "clickhouse_default", "--output-dir", cdc.resolve("materialize").toString());
        assertEquals(1, materialize.exit, materialize.stderr);
        assertEquals(List.of("connection.failed"), textCodes(materialize.stderr));
        assertClean(materialize.stdout + materialize.stderr);
    }

    /**
     * The engine prints a failed start on fd 2 itself, past Java: before the capture, stderr began with the engine's
     * own {@code Code: 36. DB::Exception: Path does not exist: /tmp/...} line ahead of the JSON document.
     */
    @Test
    void anEngineThatCannotStartIsOneTypedDocumentWithItsOwnWordsRedacted() throws Exception {
        Path engine = brokenEngine("engine-broken");
        Path context = context(Map.of("clickhouse_default", embeddedAt(engine)));
        Proc p = dpone(context, "run", manifest("clickhouse_default").toString(), "--run-id", "audit-5",
            "--format", "json");
        assertEquals(1, p.exit, p.stderr);
        assertEquals("", p.stdout);
        JsonNode doc = jsonDocument(p.stderr);
        assertEquals(List.of("sink.embedded_engine_unavailable"), codes(doc));
        String message = doc.get("blockers").get(0).get("message").asText();
        assertTrue(message.contains("DB::Exception") && message.contains(Redactorish.PATH), message);
        assertClean(p.stderr);
    }

    @Test
    void certificationAgainstADeadS3EndpointNamesNoKeyEndpointOrPath() throws Exception {
        Path context = context(Map.of("clickhouse_default", embedded("engine-cert"), "s3_stage", s3()));
        Path out = dir.resolve("evidence");
        Proc p = dpone(context, "certify", "route-capabilities", "--manifest",
            Path.of("examples/certification/embedded-sales.yaml").toAbsolutePath().toString(),
            "--scenario", "preflight_only", "--output", out.toString(), "--run-id", "audit-6", "--format", "json", "-q");
        // the streaming routes pass their preflight (exit 0, the document on stdout); the object-storage routes are
        // blocked by the S3 probe with a typed code
        assertTrue(p.exit == 0 || p.exit == 1, p.stderr);
        JsonNode doc = jsonDocument(p.exit == 0 ? p.stdout : p.stderr);
        assertTrue(doc.toString().contains("storage.runtime_put_denied"), "the S3 probe failed typed: " + doc);
        assertClean(p.stdout + p.stderr);
        try (Stream<Path> files = Files.walk(out)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                assertClean(Files.readString(f));
            }
        }
    }

    @Test
    void serveJsonLogsAreOneJsonEventPerLineAndItsHttpBodiesAreClean() throws Exception {
        serve("json");
    }

    @Test
    void serveTextLogsCarryNoStackTraceAndNothingPlanted() throws Exception {
        serve("text");
    }

    private void serve(String format) throws Exception {
        Path root = Files.createDirectories(dir.resolve("serve-" + format));
        Path engine = brokenEngine("serve-engine-" + format);
        Path context = context(Map.of("clickhouse_default", server("127.0.0.1", deadPort),
            "clickhouse_broken", embeddedAt(engine), "s3_stage", s3()));
        Files.copy(Path.of("examples/cdc/orders/events.json"), root.resolve("events.json"));
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path config = Files.writeString(root.resolve("serve.yaml"), """
            http: {port: %d}
            state_dir: state
            readiness: {connections: [s3_stage]}
            jobs:
              - {name: dead, manifest: %s, schedule: {every: 1s, start_after: 200ms}}
              - {name: broken, manifest: %s, schedule: {every: 1s, start_after: 200ms}}
            cdc_streams:
              - name: orders
                schedule: {every: 1s, start_after: 200ms}
                source: mssql
                sink: clickhouse
                backend: mssql_cdc
                pipeline_name: orders-cdc
                source_schema: dbo
                source_table: orders
                target_dataset: analytics.orders_cdc
                unique_keys: [order_id]
                events_json: events.json
                checkpoint_json: checkpoint.json
                output_dir: out
                sink_connection_id: clickhouse_default
            """.formatted(port, manifest("clickhouse_default"), manifest("clickhouse_broken")));
        Path outFile = root.resolve("stdout");
        Path errFile = root.resolve("stderr");
        Process process = start(context, outFile, errFile, "serve", "--config", config.toString(), "--log-format",
            format);
        String health;
        String metrics;
        try {
            io.dpone.testing.Await.until(Duration.ofSeconds(90), "the failed runs logged", () -> {
                assertTrue(process.isAlive(), () -> "serve ended: " + read(errFile));
                String logged = read(errFile);
                return logged.contains("job dead: run") && logged.contains("job broken: run")
                    && logged.contains("cdc stream orders");
            });
            health = get(port, "/observe/health?data=true") + get(port, "/observe/health/ready?data=true");
            metrics = get(port, "/observe/metrics");
        } finally {
            process.destroy(); // SIGTERM: the pod's stop
            io.dpone.testing.Await.exit(process, Duration.ofSeconds(60), "the serve after SIGTERM");
        }
        String stderr = Files.readString(errFile);
        assertEquals("", Files.readString(outFile));
        assertTrue(health.contains("connection.failed"), health);
        assertClean(health);
        assertClean(metrics);
        assertTrue(stderr.contains("connection.failed") && stderr.contains("sink.embedded_engine_unavailable"),
            stderr);
        if (format.equals("text")) {
            assertClean(stderr);
            return;
        }
        assertPlantedAbsent(stderr);
        for (String line : stderr.split("\n")) {
            JsonNode event = JSON.readTree(line);
            assertTrue(event.isObject() && event.has("level") && event.has("message"), line);
            ((com.fasterxml.jackson.databind.node.ObjectNode) event).remove("error"); // a stack trace's one place
            assertClean(event.toString());
        }
    }

    // ---------------------------------------------------------------------------------------------------------------

    /** What the redaction layer puts where a path was. */
    static final class Redactorish {
        static final String PATH = io.dpone.connect.Redactor.PATH_PLACEHOLDER;
    }

    record Proc(int exit, String stdout, String stderr) {
    }

    static String server(String host, int port) {
        return "{type: clickhouse, url: \"http://" + host + ":" + port + "\", user: analyst, password_env: AUDIT_CH_PW}";
    }

    static String source(String url) {
        return "{type: mssql, url: \"" + url + "\", user: sa, password_file: \"" + passwordFile + "\"}";
    }

    static String embedded(String name) throws IOException {
        return embeddedAt(Files.createDirectories(dir.resolve(name)));
    }

    static String embeddedAt(Path path) {
        return "{type: clickhouse, embedded: true, options: {path: \"" + path + "\"}}";
    }

    static String s3() {
        return "{type: s3, url: \"http://127.0.0.1:" + deadPort + "\", user: " + S3_KEY_ID
            + ", password_env: AUDIT_S3_SECRET, options: {bucket: dpone-stage, region: us-east-1, path_style: \"true\"}}";
    }

    /** An engine data directory whose database metadata points at an absolute path that does not exist. */
    static Path brokenEngine(String name) throws IOException {
        Path engine = Files.createDirectories(dir.resolve(name).resolve("metadata"));
        Files.writeString(engine.resolve("analytics.sql"), "ATTACH DATABASE _ ENGINE = Filesystem('"
            + dir.resolve("engine-files-" + NONCE) + "')\n");
        return engine.getParent();
    }

    static Path context(Map<String, String> aliases) throws IOException {
        Map<String, String> all = new java.util.LinkedHashMap<>();
        all.put("mssql_demo", source(sourceUrl));
        all.putAll(aliases);
        StringBuilder yaml = new StringBuilder("connections:\n");
        all.forEach((alias, entry) -> yaml.append("  ").append(alias).append(": ").append(entry).append('\n'));
        return Files.writeString(Files.createTempFile(dir, "context-", ".yaml"), yaml);
    }

    static Path manifest(String sinkAlias) throws IOException {
        Path file = dir.resolve("manifest-" + sinkAlias + ".yaml");
        if (!Files.exists(file)) {
            Files.writeString(file, Files.readString(Path.of("examples/batch/embedded-full-refresh.batch.yaml"))
                .replace("connection_ref: clickhouse_default", "connection_ref: " + sinkAlias));
        }
        return file;
    }

    static Proc dpone(Path context, String... args) throws Exception {
        Path out = Files.createTempFile(dir, "out-", ".txt");
        Path err = Files.createTempFile(dir, "err-", ".txt");
        Process p = start(context, out, err, args);
        int exit = io.dpone.testing.Await.exit(p, Duration.ofSeconds(180), "dpone " + String.join(" ", args));
        return new Proc(exit, Files.readString(out), Files.readString(err));
    }

    static Process start(Path context, Path out, Path err, String... args) throws IOException {
        return io.dpone.testing.ChildJvm.cli().jvm("-XX:TieredStopAtLevel=1").args(args)
            .env("DPONE_RUNTIME_CONNECTION_CONTEXT", context.toString()).env("DPONE_HOME", dir.resolve("home").toString())
            .env("AUDIT_CH_PW", ENV_PASSWORD).env("AUDIT_S3_SECRET", S3_SECRET).stdout(out).stderr(err).start();
    }

    static String get(int port, String path) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(30)).build(),
            HttpResponse.BodyHandlers.ofString());
        return r.body();
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return e.toString();
        }
    }

    /** stderr of a failed {@code --format json} command: exactly one JSON document, nothing before or after it. */
    static JsonNode jsonDocument(String stderr) throws IOException {
        try (var parser = JSON.createParser(stderr)) {
            JsonNode doc = JSON.readTree(parser);
            assertTrue(doc != null && doc.isObject(), stderr);
            assertEquals(null, parser.nextToken(), "only one JSON document on stderr: " + stderr);
            return doc;
        } catch (com.fasterxml.jackson.core.JsonParseException e) {
            return fail("stderr is not one JSON document: " + stderr);
        }
    }

    static List<String> codes(JsonNode doc) {
        Set<String> codes = new LinkedHashSet<>();
        doc.get("blockers").forEach(b -> codes.add(b.get("code").asText()));
        return List.copyOf(codes);
    }

    static List<String> textCodes(String text) {
        Set<String> codes = new LinkedHashSet<>();
        Matcher m = TEXT_BLOCKER.matcher(text);
        while (m.find()) {
            codes.add(m.group(1));
        }
        return List.copyOf(codes);
    }

    static void assertClean(String text, String... more) {
        assertPlantedAbsent(text, more);
        assertFalse(STACK_FRAME.matcher(text).find(), () -> "a stack trace:\n" + text);
    }

    static void assertPlantedAbsent(String text, String... more) {
        List<String> planted = new ArrayList<>(List.of(PASSWORD, ENV_PASSWORD, S3_KEY_ID, S3_SECRET, HOST,
            "127.0.0.1", ":" + deadPort, "port " + deadPort, dir.toString(), "jdbc:", "Filesystem("));
        planted.add(Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath() + "/");
        for (String m : more) {
            planted.add(m);
        }
        for (String secret : planted) {
            assertFalse(text.contains(secret), () -> "leaks '" + secret + "':\n" + text);
        }
    }
}
