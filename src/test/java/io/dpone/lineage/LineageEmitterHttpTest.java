package io.dpone.lineage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.dpone.quality.GateResult;
import io.dpone.report.Json;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The HTTP transport: events are POSTed as OpenLineage JSON to the configured URL and endpoint; the datasets are named
 * by alias; a collector that is down costs a log line, never the run.
 */
class LineageEmitterHttpTest {
    static final LineageRun RUN = new LineageRun(UUID.randomUUID(), "sales", "full_refresh",
        new LineageRun.Dataset("mssql_prod", "dbo.sales"), new LineageRun.Dataset("ch_prod", "analytics.sales"));

    @Test
    void postsStartAndCompleteToTheCollector() throws Exception {
        List<String> bodies = new CopyOnWriteArrayList<>();
        List<String> paths = new CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            paths.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath());
            bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(201, -1);
            exchange.close();
        });
        server.start();
        try (LineageEmitter emitter = LineageEmitter.of(new LineageConfig(URI.create("http://127.0.0.1:"
                + server.getAddress().getPort()), null, null, null, "dpone-test", Duration.ofSeconds(5)))) {
            emitter.start(RUN);
            emitter.end(RUN, true, new LineageRun.Outcome("sales-1", List.of(new LineageRun.Column("id", "int",
                "Int32")), 10, List.of(GateResult.passed("row_count", Map.of("source_rows", 10L, "target_rows", 10L))),
                List.of(), null));
        } finally {
            server.stop(0);
        }
        assertEquals(List.of("POST /api/v1/lineage", "POST /api/v1/lineage"), paths);
        JsonNode start = Json.MAPPER.readTree(bodies.get(0));
        JsonNode complete = Json.MAPPER.readTree(bodies.get(1));
        assertEquals("START", start.path("eventType").asText());
        assertEquals("COMPLETE", complete.path("eventType").asText());
        assertEquals(RUN.id().toString(), complete.path("run").path("runId").asText());
        assertEquals("dpone-test", complete.path("job").path("namespace").asText());
        assertEquals("dpone:mssql_prod", complete.path("inputs").get(0).path("namespace").asText());
        JsonNode assertion = complete.path("inputs").get(0).path("inputFacets").path("dataQualityAssertions")
            .path("assertions").get(0);
        assertEquals("row_count", assertion.path("assertion").asText());
        assertTrue(assertion.path("success").asBoolean());
        assertEquals("10", assertion.path("params").path("source_rows").asText());
    }

    @Test
    void aCollectorThatIsDownNeverFailsTheRun() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        try (LineageEmitter emitter = LineageEmitter.of(new LineageConfig(URI.create("http://127.0.0.1:" + port),
                null, null, null, null, Duration.ofSeconds(2)))) {
            emitter.start(RUN); // refused: logged, not thrown
            emitter.end(RUN, false, new LineageRun.Outcome("sales-1", List.of(), 0, List.of(),
                List.of("source.read_failed"), "the source failed"));
        }
        assertFalse(Thread.currentThread().isInterrupted());
    }
}
