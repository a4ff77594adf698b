package io.dpone.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** Named pipes for tests of inputs that must be refused unopened (opening a FIFO without a writer blocks). */
public final class Fifos {
    private Fifos() {
    }

    /** A FIFO at {@code path} (made with {@code mkfifo}); the test is skipped where there is none. */
    public static Path make(Path path) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder("mkfifo", path.toString()).redirectErrorStream(true).start();
        } catch (java.io.IOException e) {
            Assumptions.abort("no mkfifo on this machine");
            return path;
        }
        Assumptions.assumeTrue(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0, "mkfifo failed");
        Assumptions.assumeTrue(Files.exists(path) && !Files.isRegularFile(path), "not a FIFO");
        return path;
    }
}
