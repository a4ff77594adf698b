package io.dpone.route;

import io.dpone.camel.DponeCamel;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Camel {@code log} step in an operator's route is seen at INFO without configuring a logger for its route id (the
 * shipped heartbeat example printed nothing before): it logs as {@link DponeCamel#LOG_EIP_NAME}.
 */
class LogStepVisibleTest {
    @Test
    void aLogStepWithoutALogNameLogsAtInfo(@TempDir Path dir) throws Exception {
        Path route = Files.writeString(dir.resolve("beat.yaml"), """
            - route:
                id: operator_beat
                from:
                  uri: direct:operator_beat
                  steps:
                    - log:
                        id: operator_beat.log
                        message: "operator heartbeat ${body}"
            """);
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        try (DponeCamel camel = DponeCamel.start("file:" + route, false)) {
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            camel.call("operator_beat", "42");
        } finally {
            System.setErr(err);
        }
        String text = captured.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("INFO " + DponeCamel.LOG_EIP_NAME + " - operator heartbeat 42"), text);
    }
}
