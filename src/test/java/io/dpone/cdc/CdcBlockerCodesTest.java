package io.dpone.cdc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.error.BlockerCode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The CDC codes are the spec's, documented in docs/cdc.md, and (once registered) exactly those in BlockerCode. */
class CdcBlockerCodesTest {
    @Test
    void specDefaultsComeFirstAndEveryCodeIsDocumented() throws Exception {
        assertEquals(List.of("cdc_runtime.duplicate_events", "cdc_runtime.sink_apply_failed",
            "cdc_runtime.sink_not_durable", "cdc_runtime.next_offset_missing"), CdcBlockers.ALL.subList(0, 4));
        String docs = Files.readString(Path.of("docs/cdc.md"));
        CdcBlockers.ALL.forEach(code -> assertTrue(docs.contains("| `" + code + "` |"), code));
    }

    @Test
    void blockerCodeEnumHoldsExactlyTheCdcCodesOnceRegistered() {
        Set<String> registered = Arrays.stream(BlockerCode.values()).map(BlockerCode::code)
            .filter(c -> c.startsWith("cdc_runtime.")).collect(Collectors.toCollection(TreeSet::new));
        Assumptions.assumeFalse(registered.isEmpty(), "CDC codes not yet added to BlockerCode");
        assertEquals(new TreeSet<>(CdcBlockers.ALL), registered);
    }
}
