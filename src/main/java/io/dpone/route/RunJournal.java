package io.dpone.route;

import com.fasterxml.jackson.core.type.TypeReference;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.quality.GateResult;
import io.dpone.report.AtomicFiles;
import io.dpone.report.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The durable evidence of a run, written before the swap: if the process dies after publication, a resume with
 * the same run id reports the gates that admitted the generation instead of guessing.
 */
final class RunJournal {
    record Entry(String runId, long rows, List<GateResult> gates) {
    }

    private RunJournal() {
    }

    static Path path(TransferRun run) {
        return run.plan().workDir().resolve("runs").resolve(run.plan().runKey() + ".json");
    }

    static void save(TransferRun run) {
        // what an earlier attempt of this run id left when it died between write and rename (one writer per run)
        AtomicFiles.deleteStaleTemps(path(run));
        try {
            AtomicFiles.write(path(run), Json.MAPPER.writeValueAsBytes(
                new Entry(run.plan().runId(), run.sourceStats().rows(), run.gates())));
        } catch (IOException e) {
            throw new DponeException(BlockerCode.INTERNAL_ERROR, "run_journal", "cannot record the run evidence");
        }
    }


    static Entry load(TransferRun run) {
        try {
            return Json.MAPPER.readValue(Files.readAllBytes(path(run)), new TypeReference<Entry>() { });
        } catch (IOException e) {
            throw new DponeException(BlockerCode.INTERNAL_ERROR, "run_journal",
                "the target already holds this run's generation but its evidence journal is missing");
        }
    }
}
