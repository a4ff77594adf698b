package io.dpone.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The text summary of {@code dpone certify route-capabilities} shows a blocked route's first blocker message. */
class CertifyTextTest {
    @Test
    void aBlockedRoutesLineIsFollowedByItsFirstBlockerMessage() {
        String text = CertifyCommand.RouteCapabilities.text(io.dpone.certify.CertificationSummaryTest.report());
        String[] lines = text.split("\n");
        int route = java.util.stream.IntStream.range(0, lines.length)
            .filter(i -> lines[i].strip().startsWith("typed_binary_streaming")).findFirst().orElseThrow();
        assertEquals("      sink.embedded_engine_unavailable: "
            + io.dpone.certify.CertificationSummaryTest.ENGINE_BUSY, lines[route + 1], text);
        assertTrue(lines[route + 2].strip().startsWith("typed_raw_streaming"), "a green route has none: " + text);
    }
}
