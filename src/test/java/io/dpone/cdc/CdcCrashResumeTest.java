package io.dpone.cdc;

import static io.dpone.cdc.CdcFixtures.checkpointToken;
import static io.dpone.cdc.CdcFixtures.json;
import static io.dpone.cdc.CdcFixtures.sinkRows;
import static io.dpone.cdc.CdcFixtures.stage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.cdc.runtime.CdcRuntime;
import io.dpone.cdc.runtime.CdcRuntimeRunReport;
import io.dpone.cdc.runtime.CdcTickRunner;
import io.dpone.error.BlockerCode;
import io.dpone.camel.DponeCamel;
import io.dpone.testing.CliRun;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.camel.builder.AdviceWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A crash injected after every step of the tick (a processor woven after the step throws, as if the process died
 * there), then the same tick is run again through the CLI. Invariants: every event is in the sink exactly once and
 * the checkpoint equals the last durably applied batch's next offset; before the resume, the checkpoint never
 * runs ahead of the sink.
 */
class CdcCrashResumeTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "crash after {0}")
    @CsvSource({
        "cdc_load_offset, 7, 0x14",
        "cdc_read_batch, 7, 0x14",
        "cdc_idempotency, 7, 0x14",
        "cdc_apply, 10, 0x14",
        "cdc_commit_offset, 10, 0x100",
        "cdc_report, 10, 0x100",
    })
    void resumeAppliesEveryEventExactlyOnce(String step, int rowsAfterCrash, String checkpointAfterCrash)
        throws Exception {
        stage(dir, "orders/events.json");
        assertEquals(0, CdcCli.run(CdcCli.specExample(dir)).exitCode());
        stage(dir, "orders/events_batch2.json");

        CdcRuntimeRunReport crashed;
        try (DponeCamel camel = DponeCamel.start(null, false)) {
            AdviceWith.adviceWith(camel.context(), CdcTickRunner.ROUTE_ID, a -> a.weaveById(step).after()
                .process(exchange -> {
                    throw new IllegalStateException("injected crash after " + step);
                }));
            crashed = CdcTickRunner.run(camel, CdcRuntime.tick(CdcFixtures.specOptions(dir), "crash-run", null));
        }
        assertFalse(crashed.passed());
        assertEquals(List.of(BlockerCode.INTERNAL_ERROR.code()),
            crashed.blockers().stream().map(b -> b.code()).toList());
        assertEquals(rowsAfterCrash, sinkRows(dir).size());
        assertEquals(checkpointAfterCrash, checkpointToken(dir));

        CliRun resumed = CdcCli.run(CdcCli.specExample(dir));
        assertEquals(0, resumed.exitCode(), resumed.stderr());
        JsonNode doc = json(resumed.stdout());
        // a crash after the commit left nothing to move: the resumed tick says so instead of committing again
        assertEquals(checkpointAfterCrash.equals("0x100") ? "offset_unchanged" : "committed",
            doc.path("commit_outcome").asText());
        assertEquals(!checkpointAfterCrash.equals("0x100"), doc.path("committed").asBoolean());
        assertEquals("0x100", checkpointToken(dir));
        List<JsonNode> rows = sinkRows(dir);
        Map<String, Integer> perEvent = new HashMap<>();
        rows.forEach(r -> perEvent.merge(r.path("dpone_cdc_event_id").asText(), 1, Integer::sum));
        assertEquals(10, perEvent.size(), "every event of both batches is in the sink");
        assertTrue(perEvent.values().stream().allMatch(n -> n == 1), "no event is in the sink twice");
        boolean appliedBeforeCommit = rowsAfterCrash == 10 && checkpointAfterCrash.equals("0x14");
        if (appliedBeforeCommit) {
            assertEquals(3, doc.path("counts").path("already_in_sink").asInt());
            assertEquals(0, doc.path("counts").path("applied").asInt());
        }

        CliRun again = CdcCli.run(CdcCli.specExample(dir));
        assertEquals(0, again.exitCode(), again.stderr());
        assertEquals(10, sinkRows(dir).size());
        assertEquals("0x100", checkpointToken(dir));
    }
}
