package io.dpone.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An alias defined twice in a connection context is refused with its line, not silently the last one. */
class ConnectionContextDuplicatesTest {
    @Test
    void aDuplicateAliasIsRefusedWithItsLine(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("connections.yaml"), """
            connections:
              ch:
                type: clickhouse
                url: "http://a:8123"
              ch:
                type: clickhouse
                url: "http://b:8123"
            """);
        Blocker b = assertThrows(DponeException.class, () -> ConnectionContext.load(file)).blockers().get(0);
        assertEquals("connection.context_invalid", b.code());
        assertTrue(b.message().contains("defines a key twice") && b.message().contains("line 5"), b.message());
        assertTrue(!b.message().contains("http://"), b.message());
    }
}
