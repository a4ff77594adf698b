package io.dpone.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.testing.IdleMain;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
        Process p = new ProcessBuilder(List.of(io.dpone.testing.ChildJvm.JAVA, io.dpone.testing.ChildJvm.tmpdir(),
            "-javaagent:" + agent.toAbsolutePath() + "=port=" + port + ",host=127.0.0.1",
            "-cp", System.getProperty("java.class.path"), IdleMain.class.getName())).redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line;
            while ((line = out.readLine()) != null && !line.equals("ready")) {
                // the agent's start-up line
            }
            HttpRequest read = HttpRequest.newBuilder(URI.create(
                "http://127.0.0.1:" + port + "/jolokia/read/java.lang:type=Runtime/SpecVersion")).build();
            HttpResponse<String> r = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (r == null) { // the agent may open its port just after main starts
                try {
                    r = HttpClient.newHttpClient().send(read, HttpResponse.BodyHandlers.ofString());
                } catch (java.net.ConnectException e) {
                    if (System.nanoTime() > deadline || !p.isAlive()) {
                        throw e;
                    }
                    Thread.sleep(100);
                }
            }
            JsonNode doc = new ObjectMapper().readTree(r.body());
            assertEquals(200, doc.path("status").asInt(), r.body());
            assertEquals(System.getProperty("java.specification.version"), doc.path("value").asText(), r.body());
        } finally {
            p.getOutputStream().close();
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }
}
