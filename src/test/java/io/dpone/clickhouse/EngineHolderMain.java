package io.dpone.clickhouse;

import java.nio.file.Path;

/** A process that holds the embedded engine open on a data directory until its stdin closes (for lock tests). */
public final class EngineHolderMain {
    private EngineHolderMain() {
    }

    public static void main(String[] args) throws Exception {
        try (EmbeddedClickHouseEndpoint ch = EmbeddedClickHouseEndpoint.open(Path.of(args[0]))) {
            ch.query("SELECT 1");
            System.out.println("open " + ProcessHandle.current().pid());
            System.out.flush();
            while (System.in.read() >= 0) {
                // hold the engine until the test closes our stdin
            }
        }
    }
}
