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

    /** Schedules per route (system property {@code fault.schedules}, default 6: 18 over the three routes). */
    static int count() {
        return Integer.getInteger("fault.schedules", 6);
    }

    /**
     * With retries off ({@code retry.max_retries: 0}) every fault that hits a run fails it: the failed-and-resumed
     * path under the same invariants (typed, old generation untouched, the resume exact), 6 schedules at one fault
     * per connection.
     */
    @Test
    void withRetriesOffAFaultedRunFailsTypedAndResumesExactly() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getProperty("fault.routes") == null,
            "the bench runs the retrying schedules only");
        FaultSchedules schedules = new FaultSchedules(twin, Files.createDirectories(home.resolve("runs-off")),
            120_000, 1_000).maxRetries(0);
        List<FaultSchedules.Schedule> chain = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            chain.add(new FaultSchedules.Schedule(0x35_1000L + i, "typed_binary_streaming",
                // CLOSE included: seed 0x351003 once read a response cut in its head as an empty result
                // (runtime.internal_error); ServerClickHouseTruncationTest sweeps every offset of that
                List.of(FaultProxy.Kind.RESET, FaultProxy.Kind.CLOSE, FaultProxy.Kind.STALL, FaultProxy.Kind.HALF_OPEN), 1.0, 96 * 1024L));
        }
        List<FaultSchedules.Outcome> outcomes;
        try (DponeCamel camel = DponeCamel.start(null, false)) {
            outcomes = schedules.chain(camel, "typed_binary_streaming", 2_000, 400, chain);
        }
        String tally = FaultSchedules.tally(outcomes);
        System.err.println("fault suite, retries off:\n" + tally);
        assertEquals(0, outcomes.stream().filter(o -> o.violation() != null).count(), tally);
        assertEquals(6, outcomes.size(), tally);
        assertTrue(outcomes.stream().anyMatch(FaultSchedules.Outcome::resumed),
            "a faulted run failed typed and resumed exactly: " + tally);
        assertTrue(outcomes.stream().allMatch(o -> o.retries() == 0), tally);
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
        if (System.getProperty("fault.routes") == null) {
            // the CI suite's 18 schedules must exercise the retry path; a bench shard (a few schedules of one route)
            // is judged by its violations alone, and the bench sums its tallies
            assertTrue(outcomes.stream().anyMatch(o -> o.faults() > 0), "the schedules fired faults: " + tally);
            assertTrue(outcomes.stream().anyMatch(o -> o.passed() && o.retries() > 0),
                "a run passed through a fault with its retries counted: " + tally);
        }
    }
}
