package io.dpone.watchdog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PhaseWatchdogTest {
    @TempDir
    Path dir;

    @Test
    void theBoundComesFromTheEnvironmentOrTheDefault() {
        assertEquals(PhaseWatchdog.DEFAULT_BOUND, PhaseWatchdog.bound(null));
        assertEquals(PhaseWatchdog.DEFAULT_BOUND, PhaseWatchdog.bound(" "));
        assertEquals(Duration.ofSeconds(90), PhaseWatchdog.bound("90s"));
        assertEquals(Duration.ofMinutes(15), PhaseWatchdog.bound("15m"));
        assertEquals(Duration.ofHours(2), PhaseWatchdog.bound("2H"));
        assertEquals(Duration.ofMillis(500), PhaseWatchdog.bound("500ms"));
        for (String bad : new String[] {"0s", "-5s", "15", "abc", "1d", "15 m", "9999999999s"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PhaseWatchdog.bound(bad));
            assertTrue(e.getMessage().contains("DPONE_PHASE_TIMEOUT"), e.getMessage());
        }
    }

    @Test
    void theThreadDumpHasWholeStacksAndLocksAndNoPath() throws Exception {
        CountDownLatch deep = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Object monitor = new Object();
        Thread t = new Thread(() -> recurse(20, monitor, deep, release), "dump-subject");
        t.start();
        try {
            deep.await();
            String name = ThreadDump.writeInto(dir, "cdc_runtime_tick/read batch");
            assertTrue(name.matches("threads-cdc_runtime_tick_read_batch-\\d{8}T\\d{6}Z\\.txt"), name);
            String dump = Files.readString(dir.resolve(name));
            String subject = dump.substring(dump.indexOf("\"dump-subject\""));
            subject = subject.substring(0, subject.indexOf("\n\n"));
            assertTrue(subject.lines().filter(l -> l.contains("PhaseWatchdogTest.recurse")).count() >= 20,
                "every frame, not the first eight:\n" + subject);
            assertTrue(subject.contains("- locked java.lang.Object@"), subject);
            assertTrue(dump.contains("\"main\"") || dump.contains("Test worker"), "all threads");
        } finally {
            release.countDown();
            t.join();
        }
    }

    @Test
    void phaseIsANoOpWithoutAnArmedGuardAndOneGuardAtATime() {
        PhaseWatchdog.phase("anything"); // nothing armed: no effect, no error
        PhaseWatchdog.runDirectory(dir);
        try (PhaseWatchdog guard = PhaseWatchdog.arm(Duration.ofMinutes(5), dir, (p, b, d) -> { })) {
            assertThrows(IllegalStateException.class, () -> PhaseWatchdog.arm(Duration.ofMinutes(5), dir,
                (p, b, d) -> { }));
            PhaseWatchdog.phase("still armed");
        }
        try (PhaseWatchdog again = PhaseWatchdog.arm(Duration.ofMinutes(5), dir, (p, b, d) -> { })) {
            PhaseWatchdog.phase("closed guards can be armed again");
        }
    }

    private static void recurse(int depth, Object monitor, CountDownLatch deep, CountDownLatch release) {
        if (depth > 0) {
            recurse(depth - 1, monitor, deep, release);
            return;
        }
        synchronized (monitor) {
            deep.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
