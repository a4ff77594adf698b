package io.dpone.serve;

import io.dpone.testing.Manifests;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import javax.management.ObjectName;

/** Helpers for the serve tests: free ports, serve configs, HTTP GETs, JMX reads and bounded polling. */
final class ServeFixture {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private ServeFixture() {
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A serve config with one job {@code sales} running {@code manifest}; {@code extra} is appended verbatim. */
    static Path config(Path dir, Path manifest, String schedule, String extra) {
        return Manifests.write(dir.resolve("serve.yaml"), """
            http:
              port: %d
            state_dir: state
            shutdown:
              timeout: 20s
            jobs:
              - name: sales
                manifest: %s
                schedule: %s
            %s
            """.formatted(freePort(), manifest.toAbsolutePath(), schedule, extra == null ? "" : extra));
    }

    record Response(int status, String body) {
    }

    static Response get(int port, String path) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
            return new Response(r.statusCode(), r.body());
        } catch (IOException e) {
            return new Response(-1, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static Object jmx(String objectName, String attribute) {
        try {
            return ManagementFactory.getPlatformMBeanServer().getAttribute(new ObjectName(objectName), attribute);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static Object invoke(String objectName, String operation) {
        try {
            return ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName(objectName), operation,
                new Object[0], new String[0]);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Until {@code condition} holds, at most {@code timeout}; fails with {@code what} ({@link io.dpone.testing.Await}). */
    static void await(Duration timeout, String what, BooleanSupplier condition) {
        io.dpone.testing.Await.until(timeout, what, condition);
    }

    /** The value of the Prometheus sample {@code name{labels}} in {@code body}, or -1 when absent. */
    static double sample(String body, String name, String labels) {
        for (String line : body.split("\n")) {
            if (line.startsWith(name + "{") && line.contains(labels)) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return -1;
    }
}
