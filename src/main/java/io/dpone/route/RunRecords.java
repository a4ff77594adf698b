package io.dpone.route;

import com.fasterxml.jackson.core.type.TypeReference;
import io.dpone.error.Blocker;
import io.dpone.quality.GateResult;
import io.dpone.report.AtomicFiles;
import io.dpone.report.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What every full refresh leaves for {@code dpone runs} ({@code dpone run}, {@code Dpone.run} and the batch jobs of
 * {@code dpone serve}): one record per run id and pipeline in {@code <state dir>/runs/records/} ({@value #SCHEMA}),
 * next to the run's evidence journal: status, tables, route, rows, gates, whether it can resume and how, who ran it,
 * where its evidence lies. {@code dpone runs} reads {@code $DPONE_HOME/runs} and serve's default state directory
 * {@code $DPONE_HOME/serve/runs}. Runs published before records existed are listed from their evidence journals
 * ({@code runs/<key>.json}). Paths in a record are written relative to {@code $DPONE_HOME}, so the redaction layer
 * leaves them readable.
 */
public final class RunRecords {
    /** Where {@code dpone runs} looks under {@code $DPONE_HOME}: the CLI's and the API's state, then serve's. */
    static final List<String> STATE_DIRS = List.of("", "serve");
    public static final String SCHEMA = "dpone.run_record.v1";
    static final String DIR = "records";
    private static final int MAX_FILES = 10_000;

    private RunRecords() {
    }

    /** The records directory of the state directory {@code stateDir}. */
    public static Path dir(Path stateDir) {
        return stateDir.resolve("runs").resolve(DIR);
    }

    /** The record's file name for a run id of a pipeline. */
    public static String fileName(String pipeline, String runId) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest((pipeline + "\n" + runId)
                .getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8) + ".json";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Records a run's final report in {@code stateDir}, never failing the run (a record that cannot be written is
     * logged at debug); the status is {@code interrupted} when the process is stopping and the run did not pass.
     * {@code resume} is how the run is resumed ("dpone run m.yaml --run-id x", "the next start of dpone serve ..."),
     * {@code by} who ran it.
     */
    public static void record(Path stateDir, RunReport r, String resume, String by) {
        record(stateDir, r.passed() ? "passed" : ProcessShutdown.inProgress() ? "interrupted" : "failed", r, resume,
            by);
    }

    /** As {@link #record(Path, RunReport, String, String)}, with the status the caller established. */
    public static void record(Path stateDir, String status, RunReport r, String resume, String by) {
        try {
            save(stateDir, status, r, resume, by);
        } catch (RuntimeException e) {
            org.slf4j.LoggerFactory.getLogger(RunRecords.class).debug("run record not written", e);
        }
    }

    /** Records the final report with an explicit status; a run refused before it started (no table) is not a run. */
    public static void save(Path stateDir, String status, RunReport r, String resumeCommand, String by) {
        if (r.sourceTable() == null || r.pipeline() == null) {
            return;
        }
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("schema", SCHEMA);
        record.put("run_id", r.runId());
        record.put("pipeline", r.pipeline());
        record.put("status", status);
        record.put("by", by);
        record.put("source_table", r.sourceTable());
        record.put("target_table", r.targetTable());
        record.put("route_id", r.routeId());
        record.put("loaded_rows", r.loadedRows());
        record.put("rows_kept_from_earlier_attempt", r.resumedStaging() == null ? 0 : r.resumedStaging().rowsKept());
        Map<String, String> gates = new LinkedHashMap<>();
        for (GateResult g : r.gates()) {
            gates.put(g.gate(), String.valueOf(g.status()));
        }
        record.put("gates", gates);
        record.put("blockers", r.blockers().stream().map(Blocker::code).toList());
        record.put("first_blocker", r.blockers().isEmpty() ? null : r.blockers().get(0).message());
        boolean interrupted = status.equals("interrupted");
        record.put("resumable", interrupted);
        record.put("next", switch (status) {
            case "passed" -> "nothing: published; the same command with the same run id loads nothing twice";
            case "interrupted" -> "resume: " + resumeCommand + " (the staging table it kept is reused)";
            default -> "fix the first blocker, then run again: " + resumeCommand + " (it starts over)";
        });
        record.put("started_at", r.startedAt() == null ? null : r.startedAt().toString());
        record.put("finished_at", r.finishedAt() == null ? null : r.finishedAt().toString());
        AtomicFiles.write(dir(stateDir).resolve(fileName(r.pipeline(), r.runId())),
            io.dpone.report.ReportWriter.json(record));
    }

    /** Every recorded run under {@code home}, newest first, and the published runs only a journal tells of. */
    public static List<Map<String, Object>> all(Path home) {
        List<Map<String, Object>> records = new ArrayList<>();
        for (String state : STATE_DIRS) {
            for (Path f : files(dir(home.resolve(state)))) {
                read(f).filter(m -> SCHEMA.equals(m.get("schema"))).ifPresent(records::add);
            }
        }
        Map<String, String> journals = new LinkedHashMap<>();
        for (String state : STATE_DIRS) {
            for (Path f : files(home.resolve(state).resolve("runs"))) {
                read(f).ifPresent(j -> {
                    Object runId = j.get("run_id");
                    if (runId instanceof String id) {
                        journals.put(id, "$DPONE_HOME/" + (state.isEmpty() ? "" : state + "/") + "runs/"
                            + f.getFileName());
                        boolean recorded = records.stream().anyMatch(r -> id.equals(r.get("run_id")));
                        if (!recorded) {
                            records.add(fromJournal(id, j));
                        }
                    }
                });
            }
        }
        for (Map<String, Object> r : records) {
            Object id = r.get("run_id");
            r.put("evidence", journals.get(id) == null ? "no evidence journal (written only before a publication)"
                : journals.get(id));
        }
        // newest first; runs known from a journal alone (no time) last
        records.sort(Comparator.comparing((Map<String, Object> r) -> r.get("finished_at") == null ? ""
            : String.valueOf(r.get("finished_at"))).reversed());
        return records;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> fromJournal(String runId, Map<String, Object> journal) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("schema", SCHEMA);
        r.put("run_id", runId);
        r.put("status", "passed");
        r.put("loaded_rows", journal.get("rows"));
        Map<String, String> gates = new LinkedHashMap<>();
        if (journal.get("gates") instanceof List<?> list) {
            for (Object g : list) {
                if (g instanceof Map<?, ?> m) {
                    gates.put(String.valueOf(m.get("gate")), String.valueOf(m.get("status")));
                }
            }
        }
        r.put("gates", gates);
        r.put("resumable", false);
        r.put("next", "nothing: published (known from its evidence journal only; tables and route not recorded)");
        r.put("finished_at", null);
        return r;
    }

    private static List<Path> files(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".json") && Files.isRegularFile(p))
                .limit(MAX_FILES).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static java.util.Optional<Map<String, Object>> read(Path file) {
        try {
            if (Files.size(file) > 4 * 1024 * 1024) {
                return java.util.Optional.empty();
            }
            return java.util.Optional.of(Json.MAPPER.readValue(Files.readAllBytes(file),
                new TypeReference<LinkedHashMap<String, Object>>() { }));
        } catch (IOException | RuntimeException e) {
            return java.util.Optional.empty(); // a file that is no record is not listed
        }
    }
}
