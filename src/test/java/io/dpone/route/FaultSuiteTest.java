package io.dpone.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.camel.DponeCamel;
import io.dpone.testing.FaultProxy;
import io.dpone.testing.twin.TwinProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault suite in CI (issue 35, docs/testing.md "The fault suite"): seeded schedules of resets, orderly closes,
 * stalls beyond {@code socket_timeout}, half-open connections, slow drips and refused reconnects between dpone and the
 * ClickHouse HTTP twin, across the streaming routes, with the invariants of {@link FaultSchedules} checked after every
 * schedule: zero violations. {@code bench/fault-schedules.sh} runs a thousand.
 */
@io.dpone.testing.ProcessTest
class FaultSuiteTest {
    static TwinProcess twin;

    @TempDir
    static Path home;

    @BeforeAll
    static void start() throws Exception {
        twin = TwinProcess.start(home.resolve("twin"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (twin != null) {
            twin.close();
        }
    }

    @Test
    void seededFaultSchedulesAcrossTheStreamingRoutesViolateNoInvariant() throws Exception {
        List<String> routes = List.of("typed_binary_streaming", "typed_raw_streaming", "direct_push_columnar.chunked");
        List<FaultSchedules.Outcome> outcomes = new ArrayList<>();
        FaultSchedules schedules = new FaultSchedules(twin, Files.createDirectories(home.resolve("runs")), 60_000);
        try (DponeCamel camel = DponeCamel.start(null, false)) {
            for (int i = 0; i < 24; i++) {
                FaultSchedules.Schedule s = new FaultSchedules.Schedule(0x35_0000L + i, routes.get(i % routes.size()),
                    3_000, 500, List.of(FaultProxy.Kind.values()), 0.5, 96 * 1024);
                outcomes.add(schedules.run(camel, s));
            }
        }
        String tally = FaultSchedules.tally(outcomes);
        System.err.println("fault suite:\n" + tally);
        assertEquals(0, outcomes.stream().filter(o -> o.violation() != null).count(), tally);
        assertTrue(outcomes.stream().anyMatch(o -> o.faults() > 0), "the schedules fired faults: " + tally);
        assertTrue(outcomes.stream().anyMatch(o -> o.passed() && o.retries() > 0),
            "a run passed through a fault with its retries counted: " + tally);
    }
}
