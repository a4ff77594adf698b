package io.dpone.storage;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.testing.HostileServer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** An S3 endpoint that says nothing, drips or floods costs one call at most its api_call_timeout, typed. */
// waits on a hostile server: beside the other classes where parallel execution is on (-Pfast)
@Execution(ExecutionMode.CONCURRENT)
class S3ObjectStoreHostileTest {
    @ParameterizedTest
    @EnumSource(value = HostileServer.Mode.class, names = {"SILENT", "DRIP", "ENDLESS_HEADERS", "GARBAGE"})
    void aHostileEndpointIsBoundedByTheCallTimeouts(HostileServer.Mode mode) throws Exception {
        try (HostileServer server = new HostileServer(mode, 300, 7);
             S3ObjectStore store = S3ObjectStore.connect(server.url(), null, "a", "b", "bucket",
                 S3ObjectStore.Tuning.DEFAULTS, new S3ObjectStore.Timeouts(Duration.ofSeconds(3),
                     Duration.ofSeconds(1)), List.of())) {
            long start = System.nanoTime();
            assertThrows(ObjectStoreException.class, () -> store.list("x"));
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertTrue(took.compareTo(Duration.ofSeconds(12)) < 0, mode + " took " + took);
        }
    }
}
