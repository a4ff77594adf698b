package io.dpone.status;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The last runs of each job and stream in this process ({@value #KEEP} each), and the evidence files each of them
 * may serve. The evidence route serves only a file registered here, looked up by run id and file name: a request never
 * names a path. A run that falls out of the history takes its files with it; so does a run whose files a later run of
 * the same owner replaced ({@link #record} with {@code replaces}).
 */
public final class RunHistory {
    public static final int KEEP = 5;

    private final Map<String, Deque<StatusSnapshot.Run>> runs = new HashMap<>();
    private final Map<String, Map<String, Path>> evidence = new HashMap<>();

    /**
     * Records {@code run} of {@code owner} with its evidence files (display name to file). With {@code replaces},
     * the owner's earlier runs lose their evidence (the files are rewritten by every run, e.g. a CDC stream's report).
     */
    public synchronized void record(String owner, StatusSnapshot.Run run, Map<String, Path> files, boolean replaces) {
        Deque<StatusSnapshot.Run> list = runs.computeIfAbsent(owner, o -> new ArrayDeque<>());
        if (replaces) {
            List<StatusSnapshot.Run> earlier = List.copyOf(list);
            list.clear();
            for (StatusSnapshot.Run r : earlier) {
                evidence.remove(r.runId());
                list.addLast(new StatusSnapshot.Run(r.runId(), r.status(), r.finishedAt(), r.rows(), r.durationMs(),
                    r.gates(), r.blockers(), List.of()));
            }
        }
        Map<String, Path> kept = new LinkedHashMap<>(files);
        StatusSnapshot.Run withFiles = new StatusSnapshot.Run(run.runId(), run.status(), run.finishedAt(), run.rows(),
            run.durationMs(), run.gates(), run.blockers(), List.copyOf(kept.keySet()));
        list.removeIf(r -> r.runId().equals(run.runId())); // a resumed run id replaces its earlier attempt
        list.addFirst(withFiles);
        evidence.put(run.runId(), kept);
        while (list.size() > KEEP) {
            evidence.remove(list.removeLast().runId());
        }
    }

    /** The last runs of {@code owner}, newest first. */
    public synchronized List<StatusSnapshot.Run> last(String owner) {
        Deque<StatusSnapshot.Run> list = runs.get(owner);
        return list == null ? List.of() : List.copyOf(list);
    }

    /** The evidence file {@code name} of run {@code runId}, when that run is known and has such a file. */
    public synchronized Optional<Path> evidence(String runId, String name) {
        Map<String, Path> files = evidence.get(runId);
        return files == null ? Optional.empty() : Optional.ofNullable(files.get(name));
    }
}
