package io.dpone.serve;

import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.report.AtomicFiles;
import io.dpone.report.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * The durable in-flight record of each job ({@code <state_dir>/jobs/<job>.json}, written atomically): the run id
 * is saved before the run starts and removed only when the run ends on its own. A record left by a stopped or
 * killed process makes the next start run that job first with the same run id, which the full-refresh runner
 * resumes from its journal and its run-scoped staging (no duplicates, see {@code CrashResumeTest}).
 */
public final class JobState {
    /** The saved record: the run id and when it started (UTC). */
    public record InFlight(String job, String runId, Instant startedAt) {
    }

    private final Path dir;

    public JobState(Path stateDir) {
        this.dir = stateDir.resolve("jobs");
    }

    public Optional<InFlight> inFlight(String job) {
        Path f = file(job);
        if (!Files.exists(f)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Json.MAPPER.readValue(Files.readAllBytes(f), InFlight.class));
        } catch (IOException e) {
            throw new DponeException(BlockerCode.INTERNAL_ERROR, "serve.state",
                "the in-flight record of job '" + job + "' is unreadable");
        }
    }

    public void begin(String job, String runId) {
        try {
            AtomicFiles.write(file(job), Json.MAPPER.writeValueAsBytes(new InFlight(job, runId, Instant.now())));
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new DponeException(BlockerCode.INTERNAL_ERROR, "serve.state",
                "cannot record the in-flight run of job '" + job + "'");
        }
    }

    public void finish(String job) {
        try {
            Files.deleteIfExists(file(job));
        } catch (IOException e) {
            throw new DponeException(BlockerCode.INTERNAL_ERROR, "serve.state",
                "cannot clear the in-flight run of job '" + job + "'");
        }
    }

    private Path file(String job) {
        return dir.resolve(job + ".json");
    }
}
