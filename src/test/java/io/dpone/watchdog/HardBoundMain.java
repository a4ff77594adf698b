package io.dpone.watchdog;

import java.nio.file.Path;
import java.time.Duration;

/**
 * A process whose guard cannot act (its watcher thread never starts, as in a JVM held at a safepoint): only the
 * kernel's alarm can end it. Arguments: {@code DIR}.
 */
public final class HardBoundMain {
    private HardBoundMain() {
    }

    public static void main(String[] args) throws Exception {
        PhaseWatchdog.arm(Duration.ofSeconds(1), Path.of(args[0]), (p, b, d) -> { }, false, 1);
        System.out.println("armed");
        System.out.flush();
        Thread.sleep(120_000); // the hang under test: only the kernel's alarm may end it
        System.out.println("still alive");
    }
}
