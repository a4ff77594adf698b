package io.dpone.status;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What the status page shows at one moment: serve's jobs with their last runs, its CDC streams, and the Camel routes
 * loaded with their step statistics. Built by serve from its statistics objects; rendered by {@link StatusPage}.
 */
public record StatusSnapshot(Instant at, List<Job> jobs, List<Stream> streams, List<Route> routes) {
    public StatusSnapshot {
        jobs = List.copyOf(jobs);
        streams = List.copyOf(streams);
        routes = List.copyOf(routes);
    }

    /**
     * A scheduled full refresh: its schedule, the route it runs, the run in flight (empty {@code runningRunId} when
     * idle) and its last runs, newest first.
     */
    public record Job(String name, String schedule, String route, String source, String target, String runningRunId,
                      String phase, long inFlightRows, long inFlightExpectedRows, long inFlightChunks, long runs,
                      long failedRuns, List<Run> lastRuns) {
        public Job {
            lastRuns = List.copyOf(lastRuns);
        }
    }

    /**
     * A CDC stream: committed position, the source's high watermark and the lag between them (-1 when they are not
     * numbers), freshness ({@code millisBehindSource}, -1 unknown; {@code lastTickAt}), and the last check of the serving
     * target ({@code verify}: the materialization's verification, or what exists when the stream has none).
     */
    public record Stream(String name, String schedule, String mode, String backend, String target, long ticks,
                         long failedTicks, long eventsApplied, String committedPosition, String highWatermark,
                         long lag, long millisBehindSource, Instant lastTickAt, String verify, List<Run> lastRuns) {
        public Stream {
            lastRuns = List.copyOf(lastRuns);
        }
    }

    /** A finished run or tick; {@code evidence} names the files the evidence route serves for it. */
    public record Run(String runId, String status, Instant finishedAt, long rows, long durationMs, List<Gate> gates,
                      List<Blocker> blockers, List<String> evidence) {
        public Run {
            gates = List.copyOf(gates);
            blockers = List.copyOf(blockers);
            evidence = List.copyOf(evidence);
        }
    }

    /** A gate's verdict with its figures ({@link io.dpone.quality.GateFigures}). */
    public record Gate(String name, String status, Map<String, String> figures) {
        public Gate {
            figures = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(figures));
        }
    }

    /** A blocker and the line of docs/blockers.md that says what to do about it. */
    public record Blocker(String code, String subject, String message, String runbook) {
    }

    /** A Camel route with its JMX statistics and its steps'. */
    public record Route(String id, String state, long exchanges, long failed, long inflight, long meanMs, long lastMs,
                        List<Step> steps) {
        public Route {
            steps = List.copyOf(steps);
        }
    }

    /** A route step (a processor with an id) with its JMX statistics. */
    public record Step(String id, String processor, long exchanges, long failed, long meanMs, long maxMs,
                       long totalMs) {
    }
}
