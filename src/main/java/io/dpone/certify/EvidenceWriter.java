package io.dpone.certify;

import io.dpone.error.Blocker;
import io.dpone.report.ReportWriter;
import io.dpone.route.ProbeResult;
import io.dpone.route.RunReport;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Writes the five evidence files of the spec into {@code --output}, each atomically and through the redaction
 * layer: certification.json, certification.md, route_decisions.jsonl, load_steps.json, quality_report.json.
 */
final class EvidenceWriter {
    static final Map<String, String> ARTIFACTS = Map.of(
        "certification.json", "full report: selected route, blockers, warnings, safe overrides, artifact index",
        "certification.md", "human-readable summary",
        "route_decisions.jsonl", "one redacted JSON decision per route, each followed by one per capability probe",
        "load_steps.json", "microstep timings per route",
        "quality_report.json", "DQ gate results by route");

    private final Path dir;

    EvidenceWriter(Path dir) {
        this.dir = dir;
    }

    void write(CertificationReport report, Map<String, RunReport> runs) {
        write(report, runs, Map.of());
    }

    /** As {@link #write(CertificationReport, Map)}; each route's line in route_decisions.jsonl is followed by its probes'. */
    void write(CertificationReport report, Map<String, RunReport> runs, Map<String, List<ProbeResult>> probes) {
        ReportWriter.writeJson(dir.resolve("certification.json"), report);
        ReportWriter.writeMarkdown(dir.resolve("certification.md"), markdown(report));
        ReportWriter.writeMarkdown(dir.resolve("route_decisions.jsonl"), report.routes().stream()
            .flatMap(d -> java.util.stream.Stream.concat(java.util.stream.Stream.of((Object) d),
                probes.getOrDefault(d.routeId(), List.of()).stream()))
            .map(d -> ReportWriter.json(d).replaceAll("\\s*\\n\\s*", " ").strip()).collect(Collectors.joining("\n"))
            + "\n");
        Map<String, Object> steps = new LinkedHashMap<>();
        Map<String, Object> quality = new LinkedHashMap<>();
        report.routes().forEach(d -> steps.put(d.routeId(), LoadSteps.of(d, runs.get(d.routeId()))));
        runs.forEach((route, r) ->
            quality.put(route, Map.of("passed", Certification.qualityGreen(r), "gates", r.gates())));
        ReportWriter.writeJson(dir.resolve("load_steps.json"), Map.of("schema", "dpone.load_steps.v1",
            "run_id", report.runId(), "unit", "ms", "steps", LoadSteps.LEGEND, "routes", steps));
        ReportWriter.writeJson(dir.resolve("quality_report.json"), Map.of("schema", "dpone.quality_report.v1",
            "run_id", report.runId(), "routes", quality));
    }

    private static String decisionLine(CertificationReport r) {
        RouteChoice c = r.decision();
        if (c.fastestRouteId() == null) {
            return "no green route";
        }
        String runs = r.measurement().repetitions() + " measured run(s) per route after "
            + (r.measurement().warmup() ? "an untimed warm-up" : "no warm-up");
        if (!c.withinNoise()) {
            return "fastest median rows/s, clear of every other green route's range (" + runs + ")";
        }
        return "**within noise**: the rows/s ranges of " + c.overlapping().stream().map(x -> "`" + x + "`")
            .collect(Collectors.joining(", ")) + " overlap (fastest median: `" + c.fastestRouteId()
            + "`); chosen by tie-break `" + c.tieBreak() + "` (" + runs + ")";
    }

    /** The per-route rows/s table (median, min, max, spread) and a Mermaid bar chart of the medians. */
    private static void throughput(StringBuilder md, CertificationReport r) {
        List<RouteDecision> measured = r.routes().stream().filter(d -> d.runs().stream().anyMatch(x -> x.rows() > 0))
            .toList();
        if (measured.isEmpty()) {
            return;
        }
        md.append("\n## Throughput over ").append(r.measurement().repetitions()).append(" run(s) per route\n\n");
        md.append("| route | status | median rows/s | min rows/s | max rows/s | spread % | run order positions |\n");
        md.append("| --- | --- | ---: | ---: | ---: | ---: | --- |\n");
        for (RouteDecision d : measured) {
            RateStats s = d.rowsPerSecondStats();
            md.append("| `").append(d.routeId()).append("` | ").append(d.status()).append(" | ").append(s.median())
                .append(" | ").append(s.min()).append(" | ").append(s.max()).append(" | ").append(s.spreadPct())
                .append(" | ").append(d.runs().stream().map(x -> String.valueOf(x.position()))
                    .collect(Collectors.joining(", "))).append(" |\n");
        }
        md.append("\n```mermaid\nxychart-beta\n    title \"Median rows/s per route (ranges in the table)\"\n")
            .append("    x-axis [").append(measured.stream().map(d -> "\"" + d.routeId() + "\"")
                .collect(Collectors.joining(", "))).append("]\n")
            .append("    y-axis \"rows/s\"\n")
            .append("    bar [").append(measured.stream().map(d -> String.valueOf(d.rowsPerSecondStats().median()))
                .collect(Collectors.joining(", "))).append("]\n```\n");
    }

    private static String markdown(CertificationReport r) {
        StringBuilder md = new StringBuilder();
        md.append("# Route capability certification: ").append(r.scenario()).append("\n\n");
        md.append("- run id: `").append(r.runId()).append("`\n");
        md.append("- pipeline: `").append(r.pipeline()).append("`\n");
        md.append("- result: **").append(r.passed() ? "PASSED" : "FAILED").append("**\n");
        md.append("- preferred route: ").append(r.preferredRouteId() == null ? "none"
            : "`" + r.preferredRouteId() + "`").append("\n");
        md.append("- decision: ").append(decisionLine(r)).append("\n\n");
        md.append("| route | status | rows | median duration ms | median rows/s | MB/s | DQ | cleanup | blockers |\n");
        md.append("| --- | --- | ---: | ---: | ---: | ---: | --- | --- | --- |\n");
        for (RouteDecision d : r.routes()) {
            md.append("| `").append(d.routeId()).append("` | ").append(d.status()).append(" | ").append(d.rows())
                .append(" | ").append(d.durationMs()).append(" | ").append(d.rowsPerSecond()).append(" | ")
                .append(d.mbPerSecond()).append(" | ").append(d.dqGreen() ? "green" : "-").append(" | ")
                .append(d.cleanupGreen() ? "green" : "-").append(" | ")
                .append(d.blockers().stream().map(Blocker::code).distinct().collect(Collectors.joining(", ")))
                .append(" |\n");
        }
        if (r.routes().stream().anyMatch(d -> d.firstBlockerLine() != null)) {
            md.append("\n## First blocker of each blocked route\n\n");
            r.routes().stream().filter(d -> d.firstBlockerLine() != null).forEach(d -> md.append("- `")
                .append(d.routeId()).append("`: ").append(d.firstBlockerLine().replace('\n', ' ')).append('\n'));
        }
        throughput(md, r);
        if (!r.warnings().isEmpty()) {
            md.append("\n## Warnings\n\n");
            r.warnings().forEach(w -> md.append("- ").append(w).append('\n'));
        }
        md.append("\nCertification loads go to safe targets (`").append(r.routes().isEmpty() ? ""
            : r.routes().get(0).safeTarget()).append("`, ...) and run-scoped object prefixes; the production "
            + "target is never touched.\n");
        return md.toString();
    }
}
