package io.dpone.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** serve's JSON log: one object per event, a stack trace as one field, everything through the redaction layer. */
class JsonLogEncoderTest {
    @Test
    void anEventWithAStackTraceIsOneRedactedJsonLine() throws Exception {
        LoggerContext context = new LoggerContext();
        IllegalStateException cause = new IllegalStateException("connect to http://ch.internal:8123 refused, "
            + "password=hunter22");
        LoggingEvent event = new LoggingEvent(JsonLogEncoderTest.class.getName(),
            context.getLogger("com.example.Client"), Level.WARN,
            "retrying jdbc:sqlserver://db:1433;password=hunter22 from {}", new RuntimeException("wrapped", cause),
            new Object[] {"/var/lib/dpone/state"});
        event.setThreadName("worker-1");
        event.setTimeStamp(Instant.parse("2026-01-01T00:00:00Z").toEpochMilli());

        String line = JsonLogEncoder.line(event);

        assertTrue(line.endsWith("}\n") && line.indexOf('\n') == line.length() - 1, "one line: " + line);
        JsonNode doc = new ObjectMapper().readTree(line);
        assertEquals("2026-01-01T00:00:00Z", doc.get("ts").asText());
        assertEquals("WARN", doc.get("level").asText());
        assertEquals("worker-1", doc.get("thread").asText());
        assertEquals("com.example.Client", doc.get("logger").asText());
        assertTrue(doc.get("error").asText().contains("RuntimeException: wrapped")
            && doc.get("error").asText().contains("at io.dpone.serve.JsonLogEncoderTest"), doc.toString());
        for (String leak : new String[] {"hunter22", "ch.internal", "db:1433", "/var/lib/dpone"}) {
            assertFalse(line.contains(leak), leak + " in " + line);
        }
        assertEquals(line.trim(), JsonLogStream.toJson(line.trim(), Instant.now()),
            "the stderr wrapper passes an encoded event through unchanged");
    }
}
