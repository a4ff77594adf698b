package io.dpone.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.testing.IdleMain;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The Jolokia JVM agent the build ships (target/jolokia, copied into the image) serves JMX over HTTP when JAVA_OPTS
 * names it, as docs/operations.md says: a JVM started with it answers a read of an MBean on the given port.
 */
@io.dpone.testing.ProcessTest
class JolokiaAgentTest {
    @Test
    void theShippedAgentServesJmxOverHttp() throws Exception {
        Path agent = Path.of("target/jolokia/jolokia-agent.jar");
        assertTrue(Files.isRegularFile(agent), "the build copies the agent");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Process p = io.dpone.testing.ChildJvm.main(IdleMain.class)
            .jvm("-javaagent:" + agent.toAbsolutePath() + "=port=" + port + ",host=127.0.0.1").mergeStderr().start();
        try {
            io.dpone.testing.ReadyLine.await(p, "ready", "the JVM with the agent");
            HttpRequest read = HttpRequest.newBuilder(URI.create(
                "http://127.0.0.1:" + port + "/jolokia/read/java.lang:type=Runtime/SpecVersion")).build();
            java.util.concurrent.atomic.AtomicReference<HttpResponse<String>> answer =
                new java.util.concurrent.atomic.AtomicReference<>();
            // the agent may open its port just after main starts
            io.dpone.testing.Await.until(java.time.Duration.ofSeconds(30), "the agent's port", () -> {
                try {
                    answer.set(HttpClient.newHttpClient().send(read, HttpResponse.BodyHandlers.ofString()));
                    return true;
                } catch (java.net.ConnectException e) {
                    assertTrue(p.isAlive(), "the JVM with the agent ended");
                    return false;
                } catch (java.io.IOException | InterruptedException e) {
                    throw new AssertionError(e);
                }
            });
            HttpResponse<String> r = answer.get();
            JsonNode doc = new ObjectMapper().readTree(r.body());
            assertEquals(200, doc.path("status").asInt(), r.body());
            assertEquals(System.getProperty("java.specification.version"), doc.path("value").asText(), r.body());
        } finally {
            p.getOutputStream().close();
            io.dpone.testing.Await.exit(p, java.time.Duration.ofSeconds(20), "the JVM with the agent");
        }
    }
}
