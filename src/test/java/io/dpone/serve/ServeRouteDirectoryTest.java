package io.dpone.serve;

import static io.dpone.serve.ServeFixture.await;
import static io.dpone.serve.ServeFixture.get;
import static io.dpone.serve.ServeFixture.jmx;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's routes directory: a file adds a route, a file with a shipped id overrides it, a broken file is
 * refused with its file and line (JMX and readiness detail) while the others serve, and with reload on a file
 * added or fixed after start is picked up.
 */
@io.dpone.testing.EngineTest
class ServeRouteDirectoryTest {
    static final String ROUTES = "io.dpone:type=serve,name=routes";

    @TempDir
    Path dir;

    static String timerRoute(String id) {
        return """
            - route:
                id: %s
                from:
                  uri: timer:%s?period=100
                  steps:
                    - setBody:
                        constant: tick
            """.formatted(id, id);
    }

    static long completed(String routeId) {
        return (Long) jmx("org.apache.camel:context=dpone,type=routes,name=\"" + routeId + "\"", "ExchangesCompleted");
    }

    @Test
    void routeFilesAreLoadedOneAtATimeAndABrokenOneIsReportedWithItsLine() throws Exception {
        Path routes = Files.createDirectories(dir.resolve("routes"));
        Files.writeString(routes.resolve("good.yaml"), timerRoute("user_tick"));
        Files.writeString(routes.resolve("raw-override.yaml"), """
            - route:
                id: typed_raw_streaming
                from:
                  uri: direct:typed_raw_streaming
                  steps:
                    - setBody:
                        constant: overridden
            """);
        Files.writeString(routes.resolve("broken.yaml"), """
            - route:
                id: user_broken
                from:
                  uri: timer:user_broken?period=100
                  steps:
                    - noSuchStep: {}
            """);
        Path manifest = Manifests.fullRefresh(dir, "sales", "unused_db", null);
        ServeConfig config = ServeConfigLoader.load(ServeFixture.config(dir, manifest, "{every: 1h, start_after: 1h}",
            "routes: {directory: routes, reload: true, reload_interval: 200ms}"));
        try (ServeRuntime serve = ServeRuntime.start(config, TestEngines.context(TestEngines.newH2Url()), Map.of())) {
            await(Duration.ofSeconds(20), "the user route to run", () -> completed("user_tick") > 0);
            assertTrue(serve.context().getRoute("typed_raw_streaming").getSourceLocation().contains("raw-override.yaml"),
                "a directory route with a shipped id, in a file named *-override.yaml, replaces the shipped route");
            assertTrue(serve.context().getRoute("typed_binary_streaming") != null, "the other shipped routes serve");
            assertEquals("overridden", serve.context().createProducerTemplate()
                .requestBody("direct:typed_raw_streaming", "x", String.class));

            String[] rejected = (String[]) jmx(ROUTES, "RejectedRouteFiles");
            assertEquals(1, rejected.length);
            assertTrue(rejected[0].startsWith("broken.yaml:6:"), rejected[0]);
            assertTrue(rejected[0].contains(" serve.route_file_invalid "), rejected[0]);
            assertTrue(serve.context().getRoute("user_broken") == null);
            await(Duration.ofSeconds(20), "readiness", () -> get(config.httpPort(), "/observe/health/ready").status() == 200);
            String ready = get(config.httpPort(), "/observe/health/ready?data=true").body();
            assertTrue(ready.contains("broken.yaml:6:"), ready);

            // a file that reuses a shipped id without naming itself an override is refused; the shipped route stays
            Files.writeString(routes.resolve("stolen.yaml"), timerRoute("typed_binary_streaming"));
            await(Duration.ofSeconds(20), "the stolen id to be refused", () -> String.join("\n",
                (String[]) jmx(ROUTES, "RejectedRouteFiles")).contains("stolen.yaml:0:0 serve.route_id_reserved"));
            assertTrue(!serve.context().getRoute("typed_binary_streaming").getSourceLocation().contains("stolen.yaml"));
            Files.delete(routes.resolve("stolen.yaml"));

            // added after start: picked up by the reload scan and run
            Files.writeString(routes.resolve("added.yaml"), timerRoute("user_added"));
            await(Duration.ofSeconds(20), "the added route to run",
                () -> serve.context().getRoute("user_added") != null && completed("user_added") > 0);
            // the broken file, fixed: accepted, and no longer reported
            Files.writeString(routes.resolve("broken.yaml"), timerRoute("user_broken"));
            await(Duration.ofSeconds(20), "the fixed route to run",
                () -> serve.context().getRoute("user_broken") != null && completed("user_broken") > 0);
            assertArrayEquals(new String[0], (String[]) jmx(ROUTES, "RejectedRouteFiles"));
            assertTrue(completed("user_tick") > 0, "the first route kept running throughout");
        }
    }
}
