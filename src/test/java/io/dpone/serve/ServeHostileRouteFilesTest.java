package io.dpone.serve;

import static io.dpone.serve.ServeFixture.await;
import static io.dpone.serve.ServeFixture.get;
import static io.dpone.serve.ServeFixture.jmx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Route files are code: a file that runs a command through a bean on {@code java.lang.Runtime}, opens an HTTP
 * endpoint ({@code platform-http}), runs {@code exec}, writes files outside the declared directories, reads the
 * environment, nests 20,000 levels, is a bare scalar or mapping, is not UTF-8 or is too large is refused with its
 * typed code, at start and when dropped into a running serve, while serve stays live, ready and reloading; the
 * readiness details name the file and code, never the endpoint. A file whose loading throws an Error makes serve
 * not ready and leaves the reload running.
 */
@io.dpone.testing.EngineTest
class ServeHostileRouteFilesTest {
    static final String ROUTES = "io.dpone:type=serve,name=routes";

    @TempDir
    Path dir;

    static Map<String, Object> hostile() {
        Map<String, Object> files = new LinkedHashMap<>();
        files.put("runtime.yaml", """
            - route:
                id: user_runtime
                from:
                  uri: timer:user_runtime?repeatCount=1
                  steps:
                    - bean:
                        beanType: java.lang.Runtime
                        method: "exec('touch /tmp/dpone-pwned')"
            """);
        files.put("runtime_uri.yaml", """
            - route:
                id: user_runtime_uri
                from:
                  uri: timer:user_runtime_uri?repeatCount=1
                  steps:
                    - to: "bean:java.lang.Runtime?method=getRuntime"
            """);
        files.put("http.yaml", """
            - route:
                id: user_http
                from:
                  uri: "platform-http:/observe/secret-dump?httpMethodRestrict=GET&secret=hunter2"
                  steps:
                    - setBody:
                        simple: "${sysenv.DPONE_MSSQL_PASSWORD}"
            """);
        files.put("exec.yaml", """
            - from:
                uri: timer:user_exec?repeatCount=1
                steps:
                  - to: "exec:/bin/sh?args=-c touch"
            """);
        files.put("file.yaml", """
            - route:
                id: user_file
                from:
                  uri: timer:user_file?repeatCount=1
                  steps:
                    - to: "file:/etc?fileName=passwd"
            """);
        files.put("env.yaml", """
            - route:
                id: user_env
                from:
                  uri: timer:user_env?repeatCount=1
                  steps:
                    - log: "{{env:DPONE_MSSQL_PASSWORD}}"
            """);
        files.put("beans.yaml", """
            - beans:
                - name: pb
                  type: java.lang.ProcessBuilder
            """);
        files.put("deep.yaml", "- route:\n    id: user_deep\n    x: " + "[".repeat(20_000) + "]".repeat(20_000) + "\n");
        files.put("scalar.yaml", "just a scalar\n");
        files.put("map.yaml", "route:\n  id: user_map\n  from:\n    uri: timer:user_map\n");
        files.put("latin1.yaml", new byte[] {'-', ' ', 'r', 'o', 'u', 't', 'e', ':', ' ', (byte) 0xE9, '\n'});
        files.put("huge.yaml", "# " + "x".repeat(60_000) + "\n" + ("# padding\n".repeat(30_000)));
        return files;
    }

    static final Map<String, String> CODES = Map.ofEntries(
        Map.entry("runtime.yaml", "serve.route_component_refused"),
        Map.entry("runtime_uri.yaml", "serve.route_component_refused"),
        Map.entry("http.yaml", "serve.route_component_refused"),
        Map.entry("exec.yaml", "serve.route_component_refused"),
        Map.entry("file.yaml", "serve.route_component_refused"),
        Map.entry("env.yaml", "serve.route_component_refused"),
        Map.entry("beans.yaml", "serve.route_component_refused"),
        Map.entry("deep.yaml", "serve.route_file_too_large"),
        Map.entry("scalar.yaml", "serve.route_file_invalid"),
        Map.entry("map.yaml", "serve.route_file_invalid"),
        Map.entry("latin1.yaml", "serve.route_file_invalid"),
        Map.entry("huge.yaml", "serve.route_file_too_large"));

    static void write(Path routes, Map<String, Object> files) throws Exception {
        for (Map.Entry<String, Object> e : files.entrySet()) {
            if (e.getValue() instanceof byte[] b) {
                Files.write(routes.resolve(e.getKey()), b);
            } else {
                Files.writeString(routes.resolve(e.getKey()), (String) e.getValue());
            }
        }
    }

    static String rejected() {
        return String.join("\n", (String[]) jmx(ROUTES, "RejectedRouteFiles"));
    }

    @Test
    void hostileRouteFilesAreRefusedTypedAtStartAndOnReloadWhileServeStaysLive() throws Exception {
        Path routes = Files.createDirectories(dir.resolve("routes"));
        Path atStart = Files.createDirectories(dir.resolve("start"));
        write(atStart, hostile());
        Path manifest = Manifests.fullRefresh(dir, "sales", "unused_db", null);
        ServeConfig config = ServeConfigLoader.load(ServeFixture.config(dir, manifest, "{every: 1h, start_after: 1h}",
            "routes: {directory: routes, reload: true, reload_interval: 200ms}"));
        // at start: the same files in the directory before serve starts
        Files.move(atStart, routes, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        int port = config.httpPort();
        try (ServeRuntime serve = ServeRuntime.start(config, TestEngines.context(TestEngines.newH2Url()), Map.of())) {
            String atStartRejected = rejected();
            for (Map.Entry<String, String> e : CODES.entrySet()) {
                assertTrue(atStartRejected.contains(e.getKey() + ":") && atStartRejected.lines()
                    .anyMatch(l -> l.startsWith(e.getKey() + ":") && l.contains(" " + e.getValue() + " ")),
                    e.getKey() + " refused with " + e.getValue() + ": " + atStartRejected);
            }
            for (String id : List.of("user_runtime", "user_runtime_uri", "user_http", "user_file", "user_env",
                "user_deep", "user_map")) {
                assertNull(serve.context().getRoute(id), id + " was not loaded");
            }
            assertEquals(200, get(port, ServeRuntime.HEALTH_LIVE).status());
            await(Duration.ofSeconds(20), "readiness", () -> get(port, ServeRuntime.HEALTH_READY).status() == 200);
            ServeFixture.Response ready = get(port, ServeRuntime.HEALTH_READY + "?data=true");
            assertTrue(ready.body().contains("http.yaml:") && ready.body().contains("serve.route_component_refused"),
                ready.body());
            for (String leak : List.of("secret-dump", "hunter2", "/etc", "java.lang.Runtime", "/bin/sh")) {
                assertFalse(ready.body().contains(leak), "readiness shows " + leak + ": " + ready.body());
            }
            assertEquals(404, get(port, "/observe/secret-dump").status(), "no endpoint was opened");

            // dropped into the running serve: each refused again, the reload keeps running, a good file still loads
            Files.writeString(routes.resolve("zz_marker1.yaml"), ServeRouteDirectoryTest.timerRoute("user_marker1"));
            await(Duration.ofSeconds(20), "the first marker", () -> serve.context().getRoute("user_marker1") != null);
            Map<String, Object> renamed = new LinkedHashMap<>();
            hostile().forEach((k, v) -> renamed.put("late_" + k, v));
            write(routes, renamed);
            Files.writeString(routes.resolve("zz_marker2.yaml"), ServeRouteDirectoryTest.timerRoute("user_marker2"));
            await(Duration.ofSeconds(30), "the second marker after the hostile files",
                () -> serve.context().getRoute("user_marker2") != null);
            // the watcher may see the files in more than one batch, the marker before the last hostile one
            await(Duration.ofSeconds(30), "every late hostile file refused", () -> CODES.keySet().stream()
                .allMatch(k -> rejected().lines().anyMatch(l -> l.startsWith("late_" + k + ":"))));
            String late = rejected();
            for (Map.Entry<String, String> e : CODES.entrySet()) {
                assertTrue(late.lines().anyMatch(l -> l.startsWith("late_" + e.getKey() + ":")
                    && l.contains(" " + e.getValue() + " ")), "late_" + e.getKey() + ": " + late);
            }
            assertEquals(200, get(port, ServeRuntime.HEALTH_LIVE).status());
            assertEquals(200, get(port, ServeRuntime.HEALTH_READY).status());
            assertFalse(Files.exists(Path.of("/tmp/dpone-pwned")), "no command ran");
        }
    }

    @Test
    void anErrorWhileLoadingMakesServeNotReadyAndTheReloadGoesOn() throws Exception {
        Path routes = Files.createDirectories(dir.resolve("routes"));
        Files.writeString(routes.resolve("boom.yaml"), ServeRouteDirectoryTest.timerRoute("user_boom"));
        try (var camel = io.dpone.camel.DponeCamel.start(null, true)) {
            RouteFilePolicy exploding = new RouteFilePolicy(Set.of(), List.of()) {
                @Override
                Set<String> check(Path file, Set<String> shippedIds) throws Refusal, java.io.IOException {
                    if (file.getFileName().toString().equals("boom.yaml") && Files.readString(file).contains("user_boom")) {
                        throw new StackOverflowError();
                    }
                    return super.check(file, shippedIds);
                }
            };
            RouteDirectory directory = new RouteDirectory(camel.context(), routes, exploding);
            RouteFilesHealthCheck check = new RouteFilesHealthCheck(directory);
            check.setCamelContext(camel.context());
            assertEquals(1, directory.scan(), "the scan survives the Error");
            assertTrue(directory.loaderFailed());
            assertTrue(directory.getRejectedRouteFiles()[0].contains("serve.route_loader_failed StackOverflowError"),
                directory.getRejectedRouteFiles()[0]);
            assertEquals(org.apache.camel.health.HealthCheck.State.DOWN, check.call().getState());

            Files.writeString(routes.resolve("boom.yaml"), ServeRouteDirectoryTest.timerRoute("user_fixed"));
            Files.setLastModifiedTime(routes.resolve("boom.yaml"),
                java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 5_000));
            assertEquals(1, directory.scan());
            assertFalse(directory.loaderFailed(), "the fixed file clears it");
            assertEquals(org.apache.camel.health.HealthCheck.State.UP, check.call().getState());
            assertTrue(camel.context().getRoute("user_fixed") != null);
        }
    }
}
