package io.dpone.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.retry.OperationKind;
import io.dpone.retry.RetryBudget;
import io.dpone.retry.RetrySettings;
import io.dpone.retry.TransientFailure;
import io.dpone.testing.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The manifest's {@code retry:} block (issue 35): what each key changes in the run's retry budget. */
class RetryBlockTest {
    @TempDir
    Path dir;

    private BatchManifest load(String retry) throws Exception {
        Path file = Manifests.fullRefresh(dir, "sales", "db", "route: typed_binary_streaming");
        Files.writeString(file, Files.readString(file) + "\n" + retry);
        return ManifestLoader.load(file);
    }

    private static DponeException failing(RetryBudget budget, AtomicInteger attempts) {
        return assertThrows(DponeException.class, () -> budget.run(OperationKind.CHUNK_INSERT, () -> {
            attempts.incrementAndGet();
            throw new TransientFailure(BlockerCode.CONNECTION_FAILED, "clickhouse", "reset");
        }));
    }

    @Test
    void withoutABlockTheDefaultsApply() throws Exception {
        assertEquals(RetrySettings.DEFAULT, load("").retrySettings());
    }

    @Test
    void maxRetriesAndMaxTimeBoundTheRunsRetries() throws Exception {
        BatchManifest m = load("retry:\n  max_retries: 3\n  initial_backoff: 1ms\n  max_backoff: 2ms\n");
        AtomicInteger attempts = new AtomicInteger();
        DponeException e = failing(new RetryBudget(m.retrySettings()), attempts);
        assertEquals(4, attempts.get(), "the first attempt and max_retries more");
        assertEquals("connection.retry_budget_exhausted", e.blockers().get(e.blockers().size() - 1).code());

        BatchManifest timed = load("retry:\n  max_retries: 10000\n  max_time: 200ms\n  initial_backoff: 20ms\n"
            + "  max_backoff: 40ms\n");
        attempts.set(0);
        long t0 = System.nanoTime();
        failing(new RetryBudget(timed.retrySettings()), attempts);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(ms >= 150 && ms < 3_000, "max_time ended the retries after about 200 ms: " + ms);
        assertTrue(attempts.get() < 20, attempts + " attempts");

        BatchManifest off = load("retry:\n  max_retries: 0\n");
        attempts.set(0);
        failing(new RetryBudget(off.retrySettings()), attempts);
        assertEquals(1, attempts.get(), "max_retries 0: no retry");
    }

    @Test
    void theBackoffKeysSpaceTheRetries() throws Exception {
        BatchManifest m = load("retry:\n  max_retries: 3\n  initial_backoff: 100ms\n  max_backoff: 150ms\n");
        assertEquals(Duration.ofMillis(100), m.retrySettings().initialBackoff());
        long t0 = System.nanoTime();
        failing(new RetryBudget(m.retrySettings()), new AtomicInteger());
        long ms = (System.nanoTime() - t0) / 1_000_000;
        // delays 100, 150 (capped), 150, each at least 75% of itself with the jitter
        assertTrue(ms >= (100 + 150 + 150) * 3 / 4, ms + " ms");
    }

    @Test
    void aBackoffThatCannotWorkIsRefusedWithItsPath() {
        DponeException e = assertThrows(DponeException.class,
            () -> load("retry:\n  initial_backoff: 20s\n  max_backoff: 1s\n"));
        assertTrue(e.blockers().stream().anyMatch(b -> b.code().equals("manifest.invalid_value")
            && b.subject().equals("retry")), String.valueOf(e.blockers()));
        DponeException unknown = assertThrows(DponeException.class, () -> load("retry:\n  forever: true\n"));
        assertTrue(unknown.blockers().stream().anyMatch(b -> b.code().startsWith("manifest.")),
            String.valueOf(unknown.blockers()));
    }
}
