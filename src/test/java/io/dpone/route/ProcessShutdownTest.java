package io.dpone.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@io.dpone.testing.ProcessTest
class ProcessShutdownTest {
    @TempDir
    Path dir;

    @Test
    void aRunningJvmIsNotShuttingDownAndTheProbeLeavesNoHook() {
        assertFalse(ProcessShutdown.inProgress());
        assertFalse(ProcessShutdown.inProgress(), "the probe hook was removed, so a second probe works the same");
    }

    /** A child JVM asks from its own shutdown hook: the answer there must be yes. */
    @Test
    void insideAShutdownHookTheJvmIsShuttingDown() throws Exception {
        Path out = dir.resolve("answer.txt");
        Process p = io.dpone.testing.ChildJvm.main(Child.class).args(out.toString()).mergeStderr()
            .stdout(dir.resolve("child.txt")).start();
        assertEquals(0, io.dpone.testing.Await.exit(p, java.time.Duration.ofSeconds(60), "the child"));
        assertEquals(List.of("before=false", "during=true"), Files.readAllLines(out));
    }

    public static final class Child {
        public static void main(String[] args) throws Exception {
            Path out = Path.of(args[0]);
            Files.writeString(out, "before=" + ProcessShutdown.inProgress() + "\n");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    Files.writeString(out, "during=" + ProcessShutdown.inProgress() + "\n",
                        java.nio.file.StandardOpenOption.APPEND);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }));
        }
    }
}
