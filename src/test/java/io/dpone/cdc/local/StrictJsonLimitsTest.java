package io.dpone.cdc.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.cdc.CdcBlockers;
import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CDC input files are bounded before they are read: a checkpoint over 1 MiB is {@code cdc_runtime.checkpoint_too_large},
 * an events file over 1 GiB {@code cdc_runtime.events_too_large} (a sparse file: its size is looked at, it is not read),
 * and nesting past the parser's depth is a typed refusal, not a stack overflow.
 */
class StrictJsonLimitsTest {
    @TempDir
    Path dir;

    private static Blocker refusal(Path file, String code, String subject) {
        return assertThrows(DponeException.class, () -> StrictJson.read(file, code, subject)).blockers().get(0);
    }

    private Path sparse(String name, long length) throws Exception {
        Path file = dir.resolve(name);
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(length);
        }
        return file;
    }

    @Test
    void aCheckpointOverOneMebibyteIsRefusedAndOneAtTheBoundIsParsed() throws Exception {
        String json = "{\"pad\": \"" + "x".repeat(StrictJson.MAX_CHECKPOINT_BYTES - 11) + "\"}";
        assertEquals(StrictJson.MAX_CHECKPOINT_BYTES, json.length());
        Path at = Files.writeString(dir.resolve("at.json"), json);
        assertTrue(StrictJson.read(at, CdcBlockers.CHECKPOINT_INVALID, "--checkpoint-json").isObject());
        Path over = Files.writeString(dir.resolve("over.json"), json + " ");
        Blocker b = refusal(over, CdcBlockers.CHECKPOINT_INVALID, "--checkpoint-json");
        assertEquals("cdc_runtime.checkpoint_too_large", b.code());
        assertEquals("--checkpoint-json", b.subject());
        assertEquals(StrictJson.MAX_CHECKPOINT_BYTES, b.details().get("limit_bytes"));
        assertFalse(b.message().contains(dir.toString()), b.message());
    }

    @Test
    void anEndlessDeviceOrAFifoIsRefusedUnopened() throws Exception {
        Path zero = Path.of("/dev/zero");
        Assumptions.assumeTrue(Files.isReadable(zero), "a Linux machine");
        // issue 37: not a regular file, refused before it is opened (a FIFO's open would block until a writer came)
        assertEquals("cdc_runtime.checkpoint_invalid",
            refusal(zero, CdcBlockers.CHECKPOINT_INVALID, "--checkpoint-json").code());
        Path fifo = io.dpone.testing.Fifos.make(dir.resolve("events.json"));
        Blocker b = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20),
            () -> refusal(fifo, CdcBlockers.EVENTS_UNREADABLE, "--events-json"));
        assertEquals("cdc_runtime.events_unreadable", b.code());
        assertTrue(b.message().contains("not a regular file"), b.message());
    }

    @Test
    void anEventsFileOverOneGibibyteIsRefusedBySize() throws Exception {
        Path events = sparse("events.json", StrictJson.MAX_EVENTS_BYTES + 1L);
        Blocker b = refusal(events, CdcBlockers.EVENTS_UNREADABLE, "--events-json");
        assertEquals("cdc_runtime.events_too_large", b.code());
        assertEquals("--events-json", b.subject());
        assertTrue(b.message().startsWith("events.json holds more than"), b.message());
    }

    @Test
    void nestingPastTheDepthBoundIsUnreadableNotAStackOverflow() throws Exception {
        int depth = StrictJson.MAX_DEPTH + 1;
        Path deep = Files.writeString(dir.resolve("deep.json"), "[".repeat(depth) + "]".repeat(depth));
        Blocker b = refusal(deep, CdcBlockers.EVENTS_UNREADABLE, "--events-json");
        assertEquals("cdc_runtime.events_unreadable", b.code());
        assertTrue(b.message().contains("nesting depth"), b.message());
    }
}
