package io.dpone.serve;

import static io.dpone.serve.ServeFixture.await;
import static io.dpone.serve.ServeFixture.get;
import static io.dpone.serve.ServeFixture.jmx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.route.LoadChunkProcessor;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.camel.Processor;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The status page in a real browser: Debian's headless Chromium driven by Selenium loads {@code /observe/status} of a
 * serve whose job has a run in flight (held at its first chunk) after a passed run, and whose CDC stream ticks. It
 * checks what a person sees there (the job's row and its running run, every gate of the last run, the stream's
 * committed position and lag, the routes and their steps, an evidence link that opens the run's record) and what they
 * must not see (a planted secret, a row value, a local path), and saves the screenshot docs/images/status-page.png.
 *
 * <p>Tagged {@code browser}: it needs {@code /usr/bin/chromium} and {@code /usr/bin/chromedriver} (Debian's
 * {@code chromium} and {@code chromium-driver}; {@code .ci/run} installs them) and fails, naming them, when they are
 * missing. Runs offline.
 */
@io.dpone.testing.ProcessTest
@Tag("browser")
class StatusPageBrowserTest {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final Path SCREENSHOT = Path.of("docs/images/status-page.png");
    static final String SECRET = "planted-S3cret-9182";
    static final String ROW_VALUE = "ROWVALUE-7731";

    @TempDir
    Path dir;

    @Test
    void aPersonSeesTheJobsGatesStreamLagAndEvidenceAndNoSecret() throws Exception {
        assertTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER), "the browser test needs "
            + CHROMIUM + " and " + CHROMEDRIVER + ": apt-get install -y chromium chromium-driver (.ci/run installs "
            + "them when missing)");
        String h2 = TestEngines.newH2Url();
        String db = TestEngines.newDatabase("status_page");
        Path cdc = Files.createDirectories(dir.resolve("cdc"));
        Files.writeString(cdc.resolve("events.json"), events());
        Path manifest = Manifests.fullRefresh(dir, "sales", db, "order_by: [sale_id]");
        ServeConfig config = ServeConfigLoader.load(ServeFixture.config(dir, manifest,
            "{every: 1h, start_after: 100ms}", """
            readiness: {connections: [clickhouse_planted]}
            cdc_streams:
              - name: orders
                schedule: {every: 300ms, start_after: 100ms}
                source: mssql
                sink: clickhouse
                backend: mssql_change_tracking
                pipeline_name: orders-cdc
                source_schema: dbo
                source_table: orders
                target_dataset: analytics.orders
                unique_keys: [order_id]
                events_json: cdc/events.json
                checkpoint_json: cdc/checkpoint.json
                output_dir: cdc/out
            """));
        int port = config.httpPort();
        Map<String, ContextEntry> entries = new HashMap<>();
        entries.put(TestEngines.SOURCE, TestEngines.context(h2).entry(TestEngines.SOURCE).orElseThrow());
        entries.put(TestEngines.CLICKHOUSE, TestEngines.context(h2).entry(TestEngines.CLICKHOUSE).orElseThrow());
        entries.put("clickhouse_planted", new ContextEntry("clickhouse_planted", ConnectionType.CLICKHOUSE,
            "http://dpone-planted.invalid:8123", "dpone", null,
            Files.writeString(dir.resolve("ch.password"), SECRET).toString(), false, Map.of()));
        io.dpone.connect.Redactor.global().registerSecret(SECRET);

        AtomicBoolean hold = new AtomicBoolean();
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        LoadChunkProcessor load = new LoadChunkProcessor();
        Processor holding = exchange -> {
            if (hold.get()) {
                held.countDown();
                release.await(120, TimeUnit.SECONDS);
            }
            load.process(exchange);
        };
        try (Connection src = DriverManager.getConnection(h2, "sa", "")) {
            DemoSalesGenerator.seed(src, 3_000, 3);
        }
        Thread second = null;
        try (ServeRuntime serve = ServeRuntime.start(config, ConnectionContext.of(entries, false),
                Map.of("loadChunk", holding))) {
            String job = "io.dpone:type=jobs,name=sales";
            await(Duration.ofSeconds(90), "the job's first run", () -> (Long) jmx(job, "Runs") >= 1);
            assertEquals("passed", jmx(job, "LastStatus"), () -> (String) jmx(job, "LastBlockerCodes"));
            String firstRun = (String) jmx(job, "LastRunId");
            await(Duration.ofSeconds(30), "two CDC ticks", () -> (Long) jmx("io.dpone:type=cdc,name=orders",
                "Ticks") >= 2);
            hold.set(true);
            second = new Thread(() -> ServeFixture.invoke(job, "runNow"), "second-run");
            second.start();
            assertTrue(held.await(60, TimeUnit.SECONDS), "the second run reaches its first chunk");
            String running = (String) jmx(job, "RunningRunId");
            assertFalse(running.isEmpty());

            WebDriver browser = browser();
            try {
                browser.get("http://127.0.0.1:" + port + ServeRuntime.STATUS);
                assertEquals("dpone serve status", browser.getTitle());
                String jobRow = browser.findElement(By.id("job-sales")).getText();
                assertTrue(jobRow.contains("running") && jobRow.contains(running), jobRow);
                assertTrue(jobRow.contains("every 1h"), jobRow);
                assertTrue(jobRow.contains("typed_binary_streaming"), jobRow);
                String lastRuns = browser.findElement(By.id("job-runs-sales")).getText();
                assertTrue(lastRuns.contains(firstRun) && lastRuns.contains("passed"), lastRuns);
                for (String gate : TransferStats.GATES) {
                    assertTrue(lastRuns.contains(gate + ": passed") || lastRuns.contains(gate + ": skipped"),
                        "gate " + gate + " on the page: " + lastRuns);
                }
                assertTrue(lastRuns.contains("row_count: passed source_rows 3000, target_rows 3000"), lastRuns);

                String streamRow = browser.findElement(By.id("stream-orders")).getText();
                assertTrue(streamRow.contains("lag 5"), "the stream's lag: " + streamRow);
                assertTrue(streamRow.contains("20") && streamRow.contains("25"), streamRow);
                assertTrue(streamRow.contains("no verify configured"), streamRow);
                String ticks = browser.findElement(By.id("stream-runs-orders")).getText();
                for (String check : io.dpone.cdc.runtime.TickChecks.ALL) {
                    assertTrue(ticks.contains(check + ": passed"), ticks);
                }

                String routes = browser.findElement(By.id("routes-table")).getText();
                assertTrue(routes.contains("full_refresh") && routes.contains("typed_binary_streaming")
                    && routes.contains("dpone_cdc_orders"), routes);
                WebElement transfer = browser.findElement(By.id("route-typed_binary_streaming"));
                transfer.findElement(By.tagName("summary")).click(); // a person opens the route's steps
                String steps = transfer.getText();
                assertTrue(steps.contains("load_chunk") && steps.contains("quality_gates"), "the steps with their "
                    + "statistics: " + steps);

                String page = browser.getPageSource();
                for (String leak : List.of(SECRET, ROW_VALUE, dir.toString(), "dpone-planted.invalid",
                        Path.of("").toAbsolutePath().toString())) {
                    assertFalse(page.contains(leak), "the page shows " + leak);
                }
                byte[] png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
                Files.createDirectories(SCREENSHOT.getParent());
                Files.write(SCREENSHOT, png);
                assertTrue(png.length > 10_000, "a screenshot with content");

                WebElement record = browser.findElement(By.id("job-runs-sales"))
                    .findElement(By.linkText("run_record.json"));
                record.click();
                String evidence = browser.findElement(By.tagName("body")).getText();
                assertTrue(evidence.contains("\"run_id\"") && evidence.contains(firstRun), evidence);
                assertFalse(evidence.contains(dir.toString()), evidence);
            } finally {
                browser.quit();
            }
            ServeFixture.Response unknown = get(port, ServeRuntime.STATUS + "/evidence/nobody/run_record.json");
            assertEquals(404, unknown.status(), "only files of known runs");
            ServeFixture.Response traversal = get(port, ServeRuntime.STATUS + "/evidence/" + firstRun
                + "/..%2F..%2F..%2Fetc%2Fpasswd");
            assertEquals(404, traversal.status(), "a request names a registered file, never a path");
            assertEquals(200, get(port, ServeRuntime.STATUS + "/evidence/" + firstRun + "/run_record.json").status());
        } finally {
            release.countDown();
            if (second != null) {
                second.join(TimeUnit.SECONDS.toMillis(60));
            }
        }
    }

    /** Headless Chromium with a fresh profile and home under target/, never the user's. */
    private static WebDriver browser() throws Exception {
        Path base = Path.of("target", "browser").toAbsolutePath();
        Path profile = Files.createDirectories(base.resolve("profile-" + System.nanoTime()));
        Path home = Files.createDirectories(base.resolve("home"));
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-dev-shm-usage", "--window-size=1700,2300", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
            .usingDriverExecutable(new File(CHROMEDRIVER.toString()))
            .usingAnyFreePort()
            .withEnvironment(Map.of("HOME", home.toString(), "XDG_CONFIG_HOME", home.resolve("config").toString(),
                "XDG_CACHE_HOME", home.resolve("cache").toString(), "TMPDIR", home.resolve("tmp").toString()))
            .build();
        Files.createDirectories(home.resolve("tmp"));
        return new ChromeDriver(service, options);
    }

    /** A local Change Tracking events file (versions are numbers): committed 20 after the first tick, high watermark 25 (lag 5). */
    private static String events() {
        StringBuilder changes = new StringBuilder();
        for (int i = 1; i <= 10; i++) {
            changes.append(i == 1 ? "" : ",\n").append("""
                {"operation": "insert", "position": "%d", "sequence": 1, "source_schema": "dbo",
                 "source_table": "orders", "data": {"order_id": %d, "customer_id": %d, "status": "%s"},
                 "metadata": {"backend": "mssql_change_tracking"}}""".formatted(10 + i, i, 100 + i, ROW_VALUE));
        }
        return """
            {"high_watermark": "25",
             "next_offset": {"backend": "mssql_change_tracking", "token": "20", "snapshot_complete": true},
             "columns": [{"name": "order_id", "type": "int", "nullable": false}, {"name": "customer_id", "type": "int"},
                         {"name": "status", "type": "nvarchar(20)"}],
             "changes": [%s]}
            """.formatted(changes);
    }
}
