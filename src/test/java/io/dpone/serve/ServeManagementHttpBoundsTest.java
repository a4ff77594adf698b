package io.dpone.serve;

import static io.dpone.serve.ServeFixture.await;
import static io.dpone.serve.ServeFixture.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The management port bounds every connection against a real started serve, on raw sockets: a connection that sends
 * nothing, or drips a request head a byte at a time, is closed (the drip answered {@code 408}) within
 * {@code http.request_timeout}, a connection left idle after its response is closed after {@code http.idle_timeout},
 * a request carrying both {@code Content-Length} and {@code Transfer-Encoding} is refused {@code 400} before the
 * health handler runs, and liveness answers while the hostile connections are held.
 */
@io.dpone.testing.EngineTest
class ServeManagementHttpBoundsTest {
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(6);
    /** What a loaded machine may add to a bound before the close is seen. */
    private static final Duration SLACK = Duration.ofMillis(2500);

    @TempDir
    Path dir;

    private ServeConfig config() throws IOException {
        Path manifest = Manifests.fullRefresh(dir, "sales", "unused_db", null);
        Path file = ServeFixture.config(dir, manifest, "{every: 1h, start_after: 1h}", null);
        Files.writeString(file, Files.readString(file).replace("http:\n", "http:\n  request_timeout: "
            + REQUEST_TIMEOUT.toSeconds() + "s\n  idle_timeout: " + IDLE_TIMEOUT.toSeconds() + "s\n"));
        ServeConfig config = ServeConfigLoader.load(file);
        assertEquals(REQUEST_TIMEOUT, config.httpRequestTimeout());
        assertEquals(IDLE_TIMEOUT, config.httpIdleTimeout());
        return config;
    }

    private static Socket open(int port) throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
        s.setSoTimeout((int) (IDLE_TIMEOUT.plus(SLACK).plus(SLACK).toMillis())); // the bound of every read below
        return s;
    }

    /** What the server sent until it closed the connection, and when the close was seen. */
    record Closed(String received, Duration after) {
    }

    /** Reads until the server closes; fails when it has not within the socket's read timeout. */
    private static Closed readUntilClosed(Socket s, long startNanos) throws IOException {
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        InputStream in = s.getInputStream();
        byte[] buffer = new byte[4096];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                received.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the server did not close the connection within " + s.getSoTimeout() + " ms; "
                + "received: " + received.toString(StandardCharsets.ISO_8859_1));
        } catch (IOException e) { // a reset after the server's close
            if (!(e.getMessage() != null && e.getMessage().contains("reset"))) {
                throw e;
            }
        }
        return new Closed(received.toString(StandardCharsets.ISO_8859_1), Duration.ofNanos(System.nanoTime() - startNanos));
    }

    private static void within(Duration bound, Closed closed, String what) {
        assertTrue(closed.after().compareTo(bound.plus(SLACK)) < 0, what + " closed after " + closed.after()
            + ", bound " + bound);
    }

    @Test
    void silentAndDrippingConnectionsAreClosedWithinTheRequestTimeoutWhileLivenessAnswers() throws Exception {
        ServeConfig config = config();
        int port = config.httpPort();
        ScheduledExecutorService drip = Executors.newSingleThreadScheduledExecutor();
        try (ServeRuntime serve = ServeRuntime.start(config, TestEngines.context(TestEngines.newH2Url()), Map.of())) {
            await(Duration.ofSeconds(20), "liveness", () -> get(port, ServeRuntime.HEALTH_LIVE).status() == 200);
            long start = System.nanoTime();
            try (Socket silent = open(port); Socket dripping = open(port)) {
                byte[] head = "GET /observe/health/live HTTP/1.1\r\nHost: localhost\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaa"
                    .getBytes(StandardCharsets.ISO_8859_1);
                AtomicInteger sent = new AtomicInteger();
                OutputStream out = dripping.getOutputStream();
                drip.scheduleAtFixedRate(() -> {
                    int i = sent.get();
                    if (i < head.length) {
                        try {
                            out.write(head[i]);
                            out.flush();
                            sent.incrementAndGet();
                        } catch (IOException closed) {
                            throw new IllegalStateException(closed); // ends the schedule once the server closed
                        }
                    }
                }, 0, 150, TimeUnit.MILLISECONDS);
                await(Duration.ofSeconds(5), "the drip to start", () -> sent.get() > 2);
                // while both are held, liveness answers at once
                for (int i = 0; i < 3; i++) {
                    assertEquals(200, get(port, ServeRuntime.HEALTH_LIVE).status());
                }
                Closed silentClosed = readUntilClosed(silent, start);
                Closed dripClosed = readUntilClosed(dripping, start);
                assertEquals("", silentClosed.received(), "a connection that sent nothing is closed without a response");
                within(REQUEST_TIMEOUT, silentClosed, "the silent connection");
                assertTrue(dripClosed.received().startsWith("HTTP/1.1 408 "), dripClosed.received());
                assertTrue(dripClosed.received().toLowerCase(java.util.Locale.ROOT).contains("connection: close"),
                    dripClosed.received());
                within(REQUEST_TIMEOUT, dripClosed, "the dripping connection");
                assertTrue(sent.get() < head.length, "the drip was still going when the server answered 408");
            }
            assertEquals(200, get(port, ServeRuntime.HEALTH_LIVE).status(), "liveness after the hostile connections");
        } finally {
            drip.shutdownNow();
        }
    }

    @Test
    void contentLengthWithTransferEncodingIsRefusedBeforeTheHandlerAndIdleConnectionsEnd() throws Exception {
        ServeConfig config = config();
        int port = config.httpPort();
        try (ServeRuntime serve = ServeRuntime.start(config, TestEngines.context(TestEngines.newH2Url()), Map.of())) {
            await(Duration.ofSeconds(20), "liveness", () -> get(port, ServeRuntime.HEALTH_LIVE).status() == 200);
            String[] smuggled = {
                // chunked HTTP/1.1: Netty alone would drop the Content-Length and answer 200
                "GET /observe/health/live HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                "GET /observe/health/live HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n"
                    + "Content-Length: 0\r\n\r\n0\r\n\r\n",
                // both headers left as sent: a coding other than chunked, and HTTP/1.0
                "GET /observe/health/live HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n"
                    + "Transfer-Encoding: identity\r\n\r\n",
                "GET /observe/health/live HTTP/1.0\r\nHost: localhost\r\nContent-Length: 5\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            };
            for (String request : smuggled) {
                try (Socket s = open(port)) {
                    long start = System.nanoTime();
                    s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
                    s.getOutputStream().flush();
                    Closed closed = readUntilClosed(s, start);
                    assertTrue(closed.received().startsWith("HTTP/1.1 400 ") || closed.received().startsWith("HTTP/1.0 400 "),
                        request + " -> " + closed.received());
                    assertTrue(!closed.received().contains("UP"), "the health handler did not run: " + closed.received());
                    within(Duration.ZERO, closed, "the refused request's connection");
                }
            }
            // the same request without Transfer-Encoding is answered, and the kept-alive connection, idle after its
            // response, is closed after the idle timeout without another byte
            try (Socket s = open(port)) {
                s.getOutputStream().write(("GET /observe/health/live HTTP/1.1\r\nHost: localhost\r\n"
                    + "Content-Length: 0\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                s.getOutputStream().flush();
                InputStream in = s.getInputStream();
                ByteArrayOutputStream response = new ByteArrayOutputStream();
                byte[] buffer = new byte[4096];
                while (!response.toString(StandardCharsets.ISO_8859_1).contains("UP")) {
                    int n = in.read(buffer);
                    assertTrue(n > 0, "the connection closed before the response: " + response);
                    response.write(buffer, 0, n);
                }
                long answered = System.nanoTime();
                assertTrue(response.toString(StandardCharsets.ISO_8859_1).startsWith("HTTP/1.1 200 "), response.toString());
                Closed idle = readUntilClosed(s, answered);
                assertEquals("", idle.received(), "an idle kept-alive connection is closed without a response");
                assertTrue(idle.after().compareTo(IDLE_TIMEOUT.minusMillis(500)) > 0,
                    "the idle timeout, not the request timeout, closed it: " + idle.after());
                within(IDLE_TIMEOUT, idle, "the idle connection");
            }
        }
    }

    @Test
    void aManagementServerNotOnTheBoundedVertxIsRefusedTyped() throws Exception {
        ServeConfig config = config();
        // a second Vert.x in the registry: Camel finds no single one and builds its own, without the bounds
        io.vertx.core.Vertx other = io.vertx.core.Vertx.vertx();
        try {
            io.dpone.error.DponeException e = org.junit.jupiter.api.Assertions.assertThrows(
                io.dpone.error.DponeException.class, () -> ServeRuntime.start(config,
                    TestEngines.context(TestEngines.newH2Url()), Map.of("anotherVertx", other)).close());
            assertEquals("runtime.internal_error", e.blockers().get(0).code(), e.getMessage());
            assertTrue(e.blockers().get(0).message().contains("bounded Vert.x"), e.blockers().get(0).message());
            await(Duration.ofSeconds(10), "the refused serve's port to be free again", () -> {
                try (java.net.ServerSocket s = new java.net.ServerSocket(config.httpPort(), 1,
                    InetAddress.getLoopbackAddress())) {
                    return true;
                } catch (IOException busy) {
                    return false;
                }
            });
        } finally {
            other.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }
}
