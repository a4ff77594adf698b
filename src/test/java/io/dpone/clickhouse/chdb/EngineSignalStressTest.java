package io.dpone.clickhouse.chdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import io.dpone.testing.Await;
import io.dpone.testing.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fresh processes, each opening the embedded engine 15 times (120 opens in all) while H2 writes to a file database
 * and other threads allocate, throw NullPointerExceptions and force safepoints. Before the engine's signal calls were
 * isolated, the first such process hung (2 of 2 tries, killed after 40 s); now every one must exit 0 on its own
 * within its bound. Then a process holding the engine open answers SIGQUIT with the JVM's thread dump and SIGTERM
 * with its shutdown hooks, as any JVM does.
 */
@io.dpone.testing.ProcessTest
class EngineSignalStressTest {
    private static final int PROCESSES = 8;
    private static final int OPENS_PER_PROCESS = 15;
    private static final long BOUND_SECONDS = 90;

    @TempDir
    Path dir;

    @Test
    void everyProcessOpensTheEngineRepeatedlyUnderSafepointsAndNullChecksAndExitsOnItsOwn() throws Exception {
        int opens = 0;
        for (int i = 0; i < PROCESSES; i++) {
            Path work = Files.createDirectories(dir.resolve("p" + i));
            Process p = start(work, String.valueOf(OPENS_PER_PROCESS));
            int exit;
            try {
                exit = Await.exit(p, Duration.ofSeconds(BOUND_SECONDS), "process " + i);
            } catch (AssertionError hung) {
                throw new AssertionError(hung.getMessage() + ":\n" + output(work), hung);
            }
            String out = output(work);
            assertEquals(0, exit, "process " + i + " died (exit " + exit + "):\n" + out);
            assertTrue(out.contains("opens=" + OPENS_PER_PROCESS + " npes="), out);
            opens += OPENS_PER_PROCESS;
        }
        assertTrue(opens >= 100, "at least 100 engine opens: " + opens);
    }

    @Test
    void aProcessWithTheEngineOpenAnswersSigquitWithAThreadDumpAndSigtermWithItsShutdownHooks() throws Exception {
        Process p = start(dir, "3", "hold");
        try {
            await(() -> output(dir).contains("ready"), "the engine open");
            Await.exit(new ProcessBuilder("kill", "-QUIT", String.valueOf(p.pid())).start(), Duration.ofSeconds(30),
                "kill -QUIT");
            // the JVM writes the dump progressively: wait for a thread of ours in it, not just its header
            await(() -> output(dir).contains("Full thread dump") && output(dir).contains("\"npe-thrower\""),
                "a thread dump listing the Java threads after SIGQUIT");
            assertTrue(p.isAlive(), "SIGQUIT must not end the process");
            long t0 = System.nanoTime();
            p.destroy(); // SIGTERM
            assertEquals(143, Await.exit(p, Duration.ofSeconds(30), "the process after SIGTERM"),
                "killed by SIGTERM through the JVM's own handler, not a crash");
            assertTrue(output(dir).contains("shutdown hook ran"), output(dir));
            assertTrue((System.nanoTime() - t0) / 1_000_000_000 < 30);
        } finally {
            p.destroyForcibly();
        }
    }

    private static Process start(Path work, String... args) throws IOException {
        return ChildJvm.main(EngineSignalStress.class).jvm("-Xmx256m").args(work.toString()).args(args).mergeStderr()
            .stdout(work.resolve("out.txt")).start();
    }

    private static String output(Path work) {
        try {
            return Files.readString(work.resolve("out.txt"));
        } catch (IOException e) {
            return "";
        }
    }

    private static void await(java.util.function.BooleanSupplier condition, String what) {
        Await.until(Duration.ofSeconds(60), what, condition);
    }
}
