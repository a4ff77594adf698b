package io.dpone.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A connection context is bounded before it is parsed: {@code connection.context_too_large}, never the heap. */
class ConnectionContextLimitsTest {
    @TempDir
    Path dir;

    private static Blocker refusal(Path file) {
        return assertThrows(DponeException.class, () -> ConnectionContext.load(file)).blockers().get(0);
    }

    @Test
    void aFileOverTheBoundIsRefusedUnread() throws Exception {
        Path big = dir.resolve("context.yaml");
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(60L * 1024 * 1024);
        }
        Blocker b = refusal(big);
        assertEquals("connection.context_too_large", b.code());
        assertTrue(b.message().contains(String.valueOf(ConnectionContext.MAX_BYTES)), b.message());
        assertFalse(b.message().contains(dir.toString()), b.message());
    }

    @Test
    void anEndlessDeviceIsRefused() {
        Path zero = Path.of("/dev/zero");
        Assumptions.assumeTrue(Files.isReadable(zero), "a Linux machine");
        assertEquals("connection.context_invalid", refusal(zero).code()); // issue 37: not a regular file, unopened
    }

    @Test
    void aLongLineAndDeepNestingAreRefusedBeforeTheyCostAnything() throws Exception {
        Path line = Files.writeString(dir.resolve("line.yaml"),
            "connections:\n  a: {type: s3, url: \"" + "x".repeat(BoundedYaml.MAX_LINE_CHARS) + "\"}\n");
        Blocker b = refusal(line);
        assertEquals("connection.context_too_large", b.code());
        assertTrue(b.message().contains("line 2 "), b.message());
        int depth = BoundedYaml.MAX_DEPTH + 1;
        Path deep = Files.writeString(dir.resolve("deep.yaml"),
            "connections:\n  a: {type: s3, url: u, options: {x: " + "[".repeat(depth) + "]".repeat(depth) + "}}\n");
        assertEquals("connection.context_too_large", refusal(deep).code());
    }
}
