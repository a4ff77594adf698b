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

    /** Schedules per route (system property {@code fault.schedules}, default 7: 21 over the three routes). */
    static int count() {
        return Integer.getInteger("fault.schedules", 7);
    }

    @Test
    void seededFaultSchedulesAcrossTheStreamingRoutesViolateNoInvariant() throws Exception {
        List<String> routes = List.of("typed_binary_streaming", "typed_raw_streaming", "direct_push_columnar.chunked");
        int rows = Integer.getInteger("fault.rows", 2_000);
        int chunkRows = Integer.getInteger("fault.chunk_rows", 400);
        double rate = Double.parseDouble(System.getProperty("fault.rate", "0.5"));
        long window = Long.getLong("fault.window", 96 * 1024L);
        long seed0 = Long.getLong("fault.seed", 0x35_0000L);
        List<FaultProxy.Kind> kinds = System.getProperty("fault.kinds") == null ? List.of(FaultProxy.Kind.values())
            : java.util.Arrays.stream(System.getProperty("fault.kinds").split(",")).map(FaultProxy.Kind::valueOf)
                .toList();
        List<String> only = System.getProperty("fault.routes") == null ? routes
            : List.of(System.getProperty("fault.routes").split(","));
        List<FaultSchedules.Outcome> outcomes = new ArrayList<>();
        long socketTimeout = Long.getLong("fault.socket_timeout_ms", 1_000);
        FaultSchedules schedules = new FaultSchedules(twin, Files.createDirectories(home.resolve("runs")),
            Long.getLong("fault.bound_ms", 120_000), socketTimeout);
        long t0 = System.nanoTime();
        try (DponeCamel camel = DponeCamel.start(null, false)) {
            for (int r = 0; r < only.size(); r++) {
                List<FaultSchedules.Schedule> chain = new ArrayList<>();
                for (int i = 0; i < count(); i++) {
                    chain.add(new FaultSchedules.Schedule(seed0 + r * 100_000L + i, only.get(r), kinds, rate, window));
                }
                outcomes.addAll(schedules.chain(camel, only.get(r), rows, chunkRows, chain));
            }
        }
        String tally = FaultSchedules.tally(outcomes) + "\nwall " + (System.nanoTime() - t0) / 1_000_000 + " ms";
        System.err.println("fault suite (" + rows + " rows, chunk_rows " + chunkRows + ", rate " + rate + ", window "
            + window + ", kinds " + kinds + "):\n" + tally);
        assertEquals(0, outcomes.stream().filter(o -> o.violation() != null).count(), tally);
        assertEquals(only.size() * count(), outcomes.size(), "every schedule ran: " + tally);
        assertTrue(outcomes.stream().anyMatch(o -> o.faults() > 0), "the schedules fired faults: " + tally);
        assertTrue(outcomes.stream().anyMatch(o -> o.passed() && o.retries() > 0),
            "a run passed through a fault with its retries counted: " + tally);
    }
}
