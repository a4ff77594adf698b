package io.dpone.certify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.route.RunReport;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** load_steps.json names every spec step for every route: measured, or marked why it has no figure. */
class LoadStepsTest {
    @TempDir
    Path dir;

    private static RunReport report(String route, Map<String, Long> steps, List<Blocker> blockers) {
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        return new RunReport(RunReport.SCHEMA, "r", blockers.isEmpty(), route, "p", "dbo.s", "a.s", 10, 10, 100, 1,
            false, List.of(), blockers, steps, t, t.plusMillis(99), 99, 101);
    }

    private static Map<String, Long> steps(Object... pairs) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], ((Number) pairs[i + 1]).longValue());
        }
        return m;
    }

    private static RouteDecision decision(String route, String status, long ms) {
        return new RouteDecision(RouteDecision.SCHEMA, route, status, status.equals("green"), "c." + route, 10, ms,
            100, 1.0, true, true, List.of());
    }

    @Test
    void aStreamingRouteMarksTheObjectStorageAndParquetStepsNotApplicableAndLineageInline() {
        Map<String, Object> s = LoadSteps.of(decision("typed_binary_streaming", "green", 99),
            report("typed_binary_streaming", steps("prepare", 3, "source_read", 40, "clickhouse_load", 30, "dq", 5,
                "finalize", 2, "cleanup", 1), List.of()));
        assertEquals(LoadSteps.STEPS, List.copyOf(s.keySet()).subList(0, LoadSteps.STEPS.size()));
        for (String step : List.of("preflight", "parquet_write", "upload", "clickhouse_pull")) {
            assertEquals("not_applicable", s.get(step), step);
        }
        assertEquals(40L, s.get("source_read"));
        assertEquals("inline", s.get("lineage"));
        assertEquals(99L, s.get("total_ms"));
    }

    @Test
    void aParquetRouteCarriesItsParquetWriteAndABlockedOneMarksWhatItNeverReached() {
        Map<String, Object> direct = LoadSteps.of(decision("direct_push_columnar.chunked", "green", 99),
            report("direct_push_columnar.chunked", steps("prepare", 3, "source_read", 20, "parquet_write", 15,
                "clickhouse_load", 30, "dq", 5, "finalize", 2, "cleanup", 1), List.of()));
        assertEquals(15L, direct.get("parquet_write"));
        assertEquals("not_applicable", direct.get("upload"));

        Map<String, Object> blocked = LoadSteps.of(decision("object_storage_pull_s3", "blocked", 99),
            report("object_storage_pull_s3", steps("preflight", 7), List.of(Blocker.of(
                BlockerCode.SINK_NAMED_COLLECTION_MISSING, "clickhouse_read_access", "x"))));
        assertEquals(7L, blocked.get("preflight"));
        for (String step : List.of("prepare", "source_read", "parquet_write", "upload", "clickhouse_pull", "dq",
                "lineage", "finalize", "cleanup")) {
            assertEquals("not_run", blocked.get(step), step);
        }
        assertEquals("not_applicable", blocked.get("clickhouse_load"));
    }

    @Test
    void preflightOnlyWritesEveryRouteWithItsProbeTimeAndTheLegend() throws Exception {
        List<RouteDecision> routes = List.of(decision("typed_raw_streaming", "probed", 12),
            decision("object_storage_pull.file", "probed", 34));
        CertificationReport r = new CertificationReport(CertificationReport.SCHEMA, "run", "preflight_only", "p",
            true, null, routes, List.of(), List.of(), Map.of(), EvidenceWriter.ARTIFACTS, Instant.now(),
            Instant.now(), RouteChoice.decide(routes), new RouteMeasurement(1, false, 0, List.of(), List.of()));
        new EvidenceWriter(dir).write(r, Map.of());
        JsonNode doc = new ObjectMapper().readTree(dir.resolve("load_steps.json").toFile());
        for (String step : LoadSteps.STEPS) {
            assertTrue(doc.at("/steps").has(step), step);
            for (RouteDecision d : routes) {
                assertTrue(doc.at("/routes").get(d.routeId()).has(step), d.routeId() + " " + step);
            }
        }
        assertEquals(12, doc.at("/routes/typed_raw_streaming/preflight").asLong());
        assertEquals("not_run", doc.at("/routes/typed_raw_streaming/clickhouse_load").asText());
        assertEquals("not_applicable", doc.at("/routes/typed_raw_streaming/upload").asText());
        assertEquals(34, doc.at("/routes/object_storage_pull.file/preflight").asLong());
        assertEquals("not_run", doc.at("/routes/object_storage_pull.file/parquet_write").asText());
    }
}
