package io.dpone.certify;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 36 item 4: the certification summaries (certification.md; the command's text, in CertifyTextTest) carry each
 * blocked route's first blocker message, not only its code: the sentence that says what to do was only in the
 * per-route JSON.
 */
public class CertificationSummaryTest {
    public static final String ENGINE_BUSY = "the embedded ClickHouse data directory ($DPONE_HOME/clickhouse) is in use by "
        + "another dpone process (pid 4242); wait for it to finish, or give this one its own DPONE_HOME";

    @TempDir
    Path dir;

    /** A report whose first route is blocked by a busy engine (two blockers), the second green. */
    public static CertificationReport report() {
        List<RouteDecision> routes = List.of(
            new RouteDecision(RouteDecision.SCHEMA, "typed_binary_streaming", "blocked", false, "c.t", 0, 5, 0, 0.0,
                false, false, List.of(Blocker.of(BlockerCode.SINK_ENGINE_UNAVAILABLE, "clickhouse_default", ENGINE_BUSY),
                    Blocker.of(BlockerCode.SINK_ENGINE_UNAVAILABLE, "clickhouse_default", "second message"))),
            new RouteDecision(RouteDecision.SCHEMA, "typed_raw_streaming", "green", true, "c.r", 10, 5, 100, 1.0,
                true, true, List.of()));
        return new CertificationReport(CertificationReport.SCHEMA, "run", "local", "p", false, null, routes,
            List.of(), List.of(), Map.of(), EvidenceWriter.ARTIFACTS, Instant.now(), Instant.now(),
            RouteChoice.decide(routes), new RouteMeasurement(1, false, 0, List.of(), List.of()));
    }

    @Test
    void theMarkdownSummaryCarriesEachBlockedRoutesFirstMessage() throws Exception {
        new EvidenceWriter(dir).write(report(), Map.of());
        String md = Files.readString(dir.resolve("certification.md"));
        assertTrue(md.contains("- `typed_binary_streaming`: sink.embedded_engine_unavailable: " + ENGINE_BUSY), md);
        assertFalse(md.contains("second message"), "only the first blocker: " + md);
        assertFalse(md.contains("- `typed_raw_streaming`:"), "a green route has no blocker line: " + md);
    }
}
