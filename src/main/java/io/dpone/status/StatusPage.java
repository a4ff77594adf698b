package io.dpone.status;

import io.dpone.connect.Redactor;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.apache.commons.text.StringEscapeUtils;

/**
 * Renders the status page: one server-side HTML document, no script, one inline style sheet. Every value passes the
 * redaction layer ({@link Redactor}: no secret, endpoint or local path) and then HTML escaping (commons-text), in that
 * order, in {@link #h(Object)}: nothing reaches the page another way.
 */
public final class StatusPage {
    /** The page refreshes itself at this interval. */
    static final int REFRESH_SECONDS = 10;
    private static final String STYLE = """
        body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#1d2230;background:#fafbfc}
        h1{font-size:1.4em;margin:0 0 .2em}h2{font-size:1.15em;margin:1.6em 0 .4em;border-bottom:1px solid #d0d5dd}
        h3{font-size:1em;margin:1em 0 .3em}
        table{border-collapse:collapse;margin:.3em 0 .8em;background:#fff}
        th,td{border:1px solid #d0d5dd;padding:.25em .5em;text-align:left;vertical-align:top}
        th{background:#eef1f5;font-weight:600}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
        .passed,.passed_resumed{color:#0a6b2d;font-weight:600}.failed{color:#b42318;font-weight:600}
        .skipped,.none,.interrupted{color:#8a6d00}.running{color:#1f5fbf;font-weight:600}
        .gate{display:inline-block;margin:0 .3em .2em 0;padding:0 .35em;border-radius:3px;background:#eef1f5}
        .figs{color:#555;font-size:.85em}.muted{color:#6b7280}code{font-size:.95em}
        """;

    private final String base;

    /** A page whose links start at {@code base} (the status path, e.g. {@code /observe/status}). */
    public StatusPage(String base) {
        this.base = base;
    }

    /** The URL path of evidence file {@code name} of run {@code runId}. */
    public String evidencePath(String runId, String name) {
        return base + "/evidence/" + URLEncoder.encode(runId, StandardCharsets.UTF_8) + "/"
            + URLEncoder.encode(name, StandardCharsets.UTF_8);
    }

    public String render(StatusSnapshot s) {
        StringBuilder o = new StringBuilder(16_384);
        o.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
            .append("<meta http-equiv=\"refresh\" content=\"").append(REFRESH_SECONDS).append("\">")
            .append("<title>dpone serve status</title><style>").append(STYLE).append("</style></head><body>\n")
            .append("<h1>dpone serve</h1><p class=\"muted\">Status at ").append(h(time(s.at())))
            .append(" UTC, read-only, refreshed every ").append(REFRESH_SECONDS).append(" s. Health: ")
            .append("<a href=\"/observe/health?data=true\">/observe/health</a>, metrics: ")
            .append("<a href=\"/observe/metrics\">/observe/metrics</a>.</p>\n");
        jobs(o, s.jobs());
        streams(o, s.streams());
        routes(o, s.routes());
        return o.append("</body></html>\n").toString();
    }

    private void jobs(StringBuilder o, List<StatusSnapshot.Job> jobs) {
        o.append("<h2 id=\"jobs\">Jobs</h2>\n");
        if (jobs.isEmpty()) {
            o.append("<p class=\"muted\">No job is configured.</p>\n");
            return;
        }
        o.append("<table id=\"jobs-table\"><tr><th>Job</th><th>Schedule</th><th>Route</th><th>Source</th>")
            .append("<th>Target</th><th>Now</th><th>Runs</th><th>Failed</th></tr>\n");
        for (StatusSnapshot.Job j : jobs) {
            o.append("<tr id=\"job-").append(h(j.name())).append("\"><td><b>").append(h(j.name())).append("</b></td><td>")
                .append(h(j.schedule())).append("</td><td><code>").append(h(j.route())).append("</code></td><td>")
                .append(h(j.source())).append("</td><td>").append(h(j.target())).append("</td><td>");
            if (j.runningRunId().isEmpty()) {
                o.append("<span class=\"muted\">idle</span>");
            } else {
                o.append("<span class=\"running\">running</span> ").append(h(j.runningRunId())).append("<br>step ")
                    .append(h(j.phase().isEmpty() ? "starting" : j.phase())).append(", ").append(j.inFlightRows())
                    .append(j.inFlightExpectedRows() > 0 ? " of about " + j.inFlightExpectedRows() : "")
                    .append(" rows read, ").append(j.inFlightChunks()).append(" chunk(s) loaded");
            }
            o.append("</td><td class=\"n\">").append(j.runs()).append("</td><td class=\"n\">").append(j.failedRuns())
                .append("</td></tr>\n");
        }
        o.append("</table>\n");
        for (StatusSnapshot.Job j : jobs) {
            o.append("<h3>Last runs of job ").append(h(j.name())).append("</h3>\n");
            runs(o, "job-runs-" + j.name(), j.lastRuns(), "Rows");
        }
    }

    private void streams(StringBuilder o, List<StatusSnapshot.Stream> streams) {
        o.append("<h2 id=\"streams\">CDC streams</h2>\n");
        if (streams.isEmpty()) {
            o.append("<p class=\"muted\">No CDC stream is configured.</p>\n");
            return;
        }
        o.append("<table id=\"streams-table\"><tr><th>Stream</th><th>Schedule</th><th>Mode</th><th>Target</th>")
            .append("<th>Committed position</th><th>High watermark</th><th>Lag</th><th>Behind source</th>")
            .append("<th>Last tick</th><th>Last verify</th><th>Ticks</th><th>Failed</th><th>Applied</th></tr>\n");
        for (StatusSnapshot.Stream st : streams) {
            o.append("<tr id=\"stream-").append(h(st.name())).append("\"><td><b>").append(h(st.name()))
                .append("</b></td><td>").append(h(st.schedule())).append("</td><td>").append(h(st.mode())).append(" / ")
                .append(h(st.backend())).append("</td><td>").append(h(st.target())).append("</td><td><code>")
                .append(h(st.committedPosition().isEmpty() ? "none yet" : st.committedPosition()))
                .append("</code></td><td><code>").append(h(st.highWatermark().isEmpty() ? "unknown" : st.highWatermark()))
                .append("</code></td><td class=\"n\">").append(st.lag() < 0 ? "n/a" : "lag " + st.lag())
                .append("</td><td class=\"n\">").append(h(st.millisBehindSource() < 0 ? "unknown"
                    : seconds(st.millisBehindSource()))).append("</td><td>")
                .append(h(st.lastTickAt() == null ? "no tick yet" : time(st.lastTickAt()) + " ("
                    + seconds(Duration.between(st.lastTickAt(), Instant.now()).toMillis()) + " ago)"))
                .append("</td><td>").append(h(st.verify())).append("</td><td class=\"n\">").append(st.ticks())
                .append("</td><td class=\"n\">").append(st.failedTicks()).append("</td><td class=\"n\">")
                .append(st.eventsApplied()).append("</td></tr>\n");
        }
        o.append("</table>\n");
        for (StatusSnapshot.Stream st : streams) {
            o.append("<h3>Last ticks of stream ").append(h(st.name())).append("</h3>\n");
            runs(o, "stream-runs-" + st.name(), st.lastRuns(), "Applied");
        }
    }

    private void runs(StringBuilder o, String id, List<StatusSnapshot.Run> runs, String rowsLabel) {
        if (runs.isEmpty()) {
            o.append("<p class=\"muted\">No finished run in this process yet.</p>\n");
            return;
        }
        o.append("<table id=\"").append(h(id)).append("\"><tr><th>Run</th><th>Status</th><th>Finished</th><th>")
            .append(rowsLabel).append("</th><th>Duration</th><th>Gates</th><th>Blockers</th><th>Evidence</th></tr>\n");
        for (StatusSnapshot.Run r : runs) {
            o.append("<tr><td><code>").append(h(r.runId())).append("</code></td><td class=\"").append(h(r.status()))
                .append("\">").append(h(r.status())).append("</td><td>")
                .append(h(r.finishedAt() == null ? "" : time(r.finishedAt()))).append("</td><td class=\"n\">")
                .append(r.rows()).append("</td><td class=\"n\">").append(h(seconds(r.durationMs()))).append("</td><td>");
            for (StatusSnapshot.Gate g : r.gates()) {
                o.append("<span class=\"gate\"><span class=\"").append(h(g.status())).append("\">").append(h(g.name()))
                    .append(": ").append(h(g.status())).append("</span>");
                if (!g.figures().isEmpty()) {
                    o.append(" <span class=\"figs\">").append(h(figures(g.figures()))).append("</span>");
                }
                o.append("</span> ");
            }
            o.append("</td><td>");
            for (StatusSnapshot.Blocker b : r.blockers()) {
                o.append("<div><code class=\"failed\">").append(h(b.code())).append("</code> at ").append(h(b.subject()))
                    .append(": ").append(h(b.message())).append("<br><span class=\"muted\">What to do: ")
                    .append(h(b.runbook())).append("</span></div>");
            }
            o.append("</td><td>");
            for (String f : r.evidence()) {
                o.append("<a href=\"").append(h(evidencePath(r.runId(), f))).append("\">").append(h(f)).append("</a> ");
            }
            o.append("</td></tr>\n");
        }
        o.append("</table>\n");
    }

    private void routes(StringBuilder o, List<StatusSnapshot.Route> routes) {
        o.append("<h2 id=\"routes\">Routes</h2>\n<p class=\"muted\">The routes loaded in this process, with the ")
            .append("statistics Camel keeps in JMX (<code>org.apache.camel:type=routes</code> and ")
            .append("<code>type=processors</code>).</p>\n<table id=\"routes-table\"><tr><th>Route</th><th>State</th>")
            .append("<th>Exchanges</th><th>Failed</th><th>In flight</th><th>Mean</th><th>Last</th><th>Steps</th></tr>\n");
        for (StatusSnapshot.Route r : routes) {
            o.append("<tr id=\"route-").append(h(r.id())).append("\"><td><code>").append(h(r.id()))
                .append("</code></td><td>").append(h(r.state())).append("</td><td class=\"n\">").append(r.exchanges())
                .append("</td><td class=\"n\">").append(r.failed()).append("</td><td class=\"n\">").append(r.inflight())
                .append("</td><td class=\"n\">").append(ms(r.meanMs())).append("</td><td class=\"n\">")
                .append(ms(r.lastMs())).append("</td><td>");
            if (!r.steps().isEmpty()) {
                o.append("<details><summary>").append(r.steps().size()).append(" step(s)</summary><table><tr>")
                    .append("<th>Step</th><th>Processor</th><th>Exchanges</th><th>Failed</th><th>Mean</th><th>Max</th>")
                    .append("<th>Total</th></tr>");
                for (StatusSnapshot.Step st : r.steps()) {
                    o.append("<tr><td><code>").append(h(st.id())).append("</code></td><td>").append(h(st.processor()))
                        .append("</td><td class=\"n\">").append(st.exchanges()).append("</td><td class=\"n\">")
                        .append(st.failed()).append("</td><td class=\"n\">").append(ms(st.meanMs()))
                        .append("</td><td class=\"n\">").append(ms(st.maxMs())).append("</td><td class=\"n\">")
                        .append(ms(st.totalMs())).append("</td></tr>");
                }
                o.append("</table></details>");
            }
            o.append("</td></tr>\n");
        }
        o.append("</table>\n");
    }

    /** Redacted, then escaped into HTML: the one way a value reaches the page. */
    static String h(Object value) {
        return StringEscapeUtils.escapeHtml4(Redactor.global().redact(String.valueOf(value)));
    }

    private static String figures(Map<String, String> figures) {
        StringBuilder b = new StringBuilder();
        figures.forEach((k, v) -> b.append(b.length() == 0 ? "" : ", ").append(k).append(' ').append(v));
        return b.toString();
    }

    /** A JMX processing time: Camel reports -1 before the first exchange. */
    static String ms(long millis) {
        return millis < 0 ? "-" : millis + " ms";
    }

    static String time(Instant t) {
        return t.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    static String seconds(long millis) {
        return millis < 1000 ? millis + " ms" : String.format(java.util.Locale.ROOT, "%.1f s", millis / 1000.0);
    }
}
