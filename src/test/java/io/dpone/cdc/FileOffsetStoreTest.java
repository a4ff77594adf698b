package io.dpone.cdc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dpone.cdc.local.FileOffsetStore;
import io.dpone.error.DponeException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileOffsetStoreTest extends CdcOffsetStoreContract {
    @TempDir
    Path dir;

    @Override
    CdcOffsetStore store() {
        return new FileOffsetStore(dir.resolve("state/checkpoint.json"));
    }

    @Test
    void anUnreadableCheckpointIsTyped() throws Exception {
        Path file = dir.resolve("checkpoint.json");
        Files.writeString(file, "{\"schema\": \"something.else\"}");
        DponeException e = assertThrows(DponeException.class, () -> new FileOffsetStore(file).load(STREAM));
        assertEquals(CdcBlockers.CHECKPOINT_INVALID, e.blockers().get(0).code());
        assertEquals("--checkpoint-json", e.blockers().get(0).subject());
        assertEquals("{\"schema\": \"something.else\"}", Files.readString(file));
    }
}
