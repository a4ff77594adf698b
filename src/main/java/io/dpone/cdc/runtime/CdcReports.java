package io.dpone.cdc.runtime;

import io.dpone.cdc.CdcOffset;
import io.dpone.cdc.SinkReceipt;
import io.dpone.error.Blocker;
import io.dpone.report.ReportWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Builds the tick report and writes its JSON and Markdown twins (through {@link ReportWriter}). */
public final class CdcReports {
    public static final String JSON_FILE = "cdc_runtime_run.json";
    public static final String MARKDOWN_FILE = "cdc_runtime_run.md";

    private CdcReports() {
    }

    /** Builds the report from the tick's state and writes both files when the tick has an output directory. */
    static CdcRuntimeRunReport write(CdcTick tick) {
        CdcRuntimeRunReport r = build(tick);
        tick.reported(r);
        Path dir = tick.outputDir();
        if (dir != null && tick.ownsOutput()) {
            ReportWriter.writeJson(dir.resolve(JSON_FILE), r);
            ReportWriter.writeMarkdown(dir.resolve(MARKDOWN_FILE), markdown(r));
        }
        return r;
    }

    static CdcRuntimeRunReport build(CdcTick tick) {
        Instant end = Instant.now();
        long ms = Duration.between(tick.startedAt(), end).toMillis();
        int read = tick.batch() == null ? 0 : tick.batch().changes().size();
        var idem = tick.idempotency();
        SinkReceipt receipt = tick.receipt();
        CdcRuntimeRunReport.Counts counts = new CdcRuntimeRunReport.Counts(read,
            idem == null ? 0 : idem.duplicates().size(), idem == null ? 0 : idem.replayed(),
            idem == null ? 0 : idem.toApply().size(), receipt == null ? 0 : receipt.appliedRows(),
            receipt == null ? 0 : receipt.alreadyPresentRows());
        Map<String, Object> stream = new LinkedHashMap<>(tick.stream().toMap());
        stream.put("source", tick.options().source());
        stream.put("sink", tick.options().sink());
        stream.put("stream_id", tick.stream().streamId());
        List<Blocker> blockers = tick.blockers();
        return new CdcRuntimeRunReport(CdcRuntimeRunReport.SCHEMA, tick.runId(), tick.options().mode().name(),
            blockers.isEmpty(), tick.committed(), commitOutcome(tick, blockers), stream, offset(tick.offsetBefore()), offset(tick.offsetAfter()),
            offset(Optional.ofNullable(tick.batch() == null ? null : tick.batch().nextOffset())),
            tick.batch() == null ? null : tick.batch().highWatermark(), idem == null ? null : idem.batchId(),
            counts, policyCounts(tick.batch()), receipt, blockers,
            new CdcRuntimeRunReport.Metrics(tick.stepMillis(), ms, ms == 0 ? 0 : Math.round(read * 1000.0 / ms),
                Duration.between(tick.createdAt(), tick.startedAt()).toMillis(), tick.millisBehindSource()),
            tick.startedAt(), end, artifacts(tick), tick.batch() == null ? List.of() : tick.batch().columns(),
            tables(tick, blockers), tick.retries() == null ? null : tick.retries().tally(),
            tick.adapters().lanes() == null ? null : tick.adapters().lanes().selection());
    }

    /** Each table's figures of a multi-table stream (empty for a single-table stream). */
    private static List<CdcRuntimeRunReport.TableFigures> tables(CdcTick tick, List<Blocker> blockers) {
        TableLanes lanes = tick.adapters().lanes();
        if (lanes == null) {
            return List.of();
        }
        Map<String, Integer> toApply = new java.util.HashMap<>();
        if (tick.idempotency() != null) {
            tick.idempotency().toApply().forEach(e -> toApply.merge(e.sourceSchema() + "." + e.sourceTable(), 1,
                Integer::sum));
        }
        List<CdcRuntimeRunReport.TableFigures> out = new java.util.ArrayList<>();
        for (TableLanes.Lane lane : lanes.lanes()) {
            String name = lane.table().sourceTableName();
            SinkReceipt r = lanes.receipt(name);
            long lag = !blockers.isEmpty() || tick.batch() == null ? -1
                : lanes.pending(name) ? tick.millisBehindSource() : 0;
            out.add(new CdcRuntimeRunReport.TableFigures(name, lane.table().targetDataset(),
                new CdcRuntimeRunReport.Counts(lanes.read(name), 0, 0, toApply.getOrDefault(name, 0),
                    r == null ? 0 : r.appliedRows(), r == null ? 0 : r.alreadyPresentRows()),
                lag, blockers.stream().filter(b -> name.equals(b.details().get("table"))).toList(),
                lanes.added(name) ? "added" : "streaming", lanes.snapshotRows(name),
                lanes.snapshotReceipt(name) == null ? 0 : lanes.snapshotReceipt(name).appliedRows()));
        }
        return out;
    }

    /** What the batch's declared value policies changed, per column (empty without a batch or a policy). */
    private static List<CdcRuntimeRunReport.PolicyCount> policyCounts(io.dpone.cdc.CdcBatch batch) {
        if (batch == null) {
            return List.of();
        }
        List<CdcRuntimeRunReport.PolicyCount> out = new java.util.ArrayList<>();
        for (io.dpone.source.SourceColumn c : batch.columns()) {
            Long changed = batch.policyChanged().get(c.name());
            if (changed != null) {
                out.add(new CdcRuntimeRunReport.PolicyCount(c.name(), c.policy().text(), changed));
            }
        }
        return out;
    }

    private static String commitOutcome(CdcTick tick, List<Blocker> blockers) {
        if (tick.committed()) {
            return "committed";
        }
        if (!blockers.isEmpty()) {
            return "blocked";
        }
        return tick.offsetUnchanged() ? "offset_unchanged" : "no_next_offset";
    }

    /**
     * The files this tick wrote or left in place for the stream, relative to the output directory: the two report
     * files (written right after this index), the local sink's log and receipt when they exist (a database sink
     * has neither; its receipt is in the report), and the checkpoint file when it exists. A tick that lost the
     * fence lists nothing: the directory is another tick's.
     */
    private static Map<String, String> artifacts(CdcTick tick) {
        Map<String, String> artifacts = new LinkedHashMap<>();
        Path dir = tick.outputDir();
        if (dir == null || !tick.ownsOutput()) {
            return artifacts;
        }
        artifacts.put("report_json", JSON_FILE);
        artifacts.put("report_markdown", MARKDOWN_FILE);
        for (String[] local : new String[][] {{"sink_rows", "sink/cdc_sink_rows.json"},
                                              {"sink_receipt", "sink/cdc_sink_receipt.json"}}) {
            if (Files.isRegularFile(dir.resolve(local[1]))) {
                artifacts.put(local[0], local[1]);
            }
        }
        Path checkpoint = tick.options().checkpointJson();
        if (checkpoint != null && Files.isRegularFile(checkpoint)) {
            artifacts.put("checkpoint", String.valueOf(checkpoint.getFileName()));
        }
        return artifacts;
    }

    private static Map<String, Object> offset(Optional<CdcOffset> o) {
        if (o.isEmpty()) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("backend", o.get().backend());
        m.put("position", o.get().token());
        m.put("snapshot_complete", o.get().snapshotComplete());
        if (o.get().resume() != null) {
            m.put("resume", o.get().resume());
        }
        if (o.get().captureInstance() != null) {
            m.put("capture_instance", o.get().captureInstance());
        }
        return m;
    }

    /** The Markdown twin (redacted on write). */
    public static String markdown(CdcRuntimeRunReport r) {
        StringBuilder md = new StringBuilder();
        md.append("# CDC runtime tick ").append(r.runId()).append("\n\n");
        md.append("- verdict: **").append(r.passed() ? "passed" : "red").append("**, offset ")
            .append(r.committed() ? "committed" : "not committed (" + r.commitOutcome() + ")").append('\n');
        md.append("- stream: `").append(r.stream().get("pipeline_name")).append("` (")
            .append(r.stream().get("source")).append(" -> ").append(r.stream().get("sink")).append(", backend `")
            .append(r.stream().get("backend")).append("`): ");
        if (r.stream().containsKey("tables")) {
            md.append(r.tables().size()).append(" tables (below)\n");
        } else {
            md.append('`').append(r.stream().get("source_schema")).append('.')
                .append(r.stream().get("source_table")).append("` -> `").append(r.stream().get("target_dataset"))
                .append("`, unique keys ").append(r.stream().get("unique_keys")).append('\n');
        }
        md.append("- mode: ").append(r.mode()).append(", schema `").append(r.schema()).append("`\n\n");
        if (!r.tables().isEmpty()) {
            md.append("## Tables\n\n| table | log | state | snapshot rows | read | to apply | applied | already in sink "
                + "| ms behind source | blockers |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
            r.tables().forEach(t -> md.append("| `").append(t.sourceTable()).append("` | `").append(t.targetDataset())
                .append("` | ").append(t.state()).append(" | ").append(t.snapshotRows()).append(" | ")
                .append(t.counts().read()).append(" | ").append(t.counts().toApply()).append(" | ")
                .append(t.counts().applied()).append(" | ").append(t.counts().alreadyInSink()).append(" | ")
                .append(t.millisBehindSource()).append(" | ").append(t.blockers().isEmpty() ? "-"
                    : String.join(", ", t.blockers().stream().map(b -> "`" + b.code() + "`").toList()))
                .append(" |\n"));
            md.append('\n');
        }
        if (r.tableSelection() != null) {
            Map<String, Object> sel = r.tableSelection();
            md.append("## Table selection\n\ninclude ").append(sel.get("include")).append(", exclude ")
                .append(sel.get("exclude")).append(", target template `").append(sel.get("target_template"))
                .append("`\n\n");
            for (String part : List.of("matched", "excluded", "blocked")) {
                List<?> items = (List<?>) sel.get(part);
                md.append("- ").append(part).append(": ").append(items.isEmpty() ? "none" : items.stream()
                    .map(o -> (Map<?, ?>) o).map(m -> "`" + m.get("table") + "`" + (m.get("pattern") != null
                        ? " (" + m.get("pattern") + ")" : m.get("reason") != null ? " (" + m.get("reason") + ")"
                        : m.get("target_dataset") != null ? " -> `" + m.get("target_dataset") + "`" : ""))
                    .collect(java.util.stream.Collectors.joining(", "))).append('\n');
            }
            md.append('\n');
        }
        md.append("## Offsets\n\n| | position | backend | snapshot complete |\n| --- | --- | --- | --- |\n");
        row(md, "before", r.offsetBefore());
        row(md, "batch next", r.nextOffset());
        row(md, "after", r.offsetAfter());
        md.append("\nHigh watermark: ").append(r.highWatermark() == null ? "-" : r.highWatermark())
            .append(", batch id: ").append(r.batchId() == null ? "-" : r.batchId()).append("\n\n");
        CdcRuntimeRunReport.Counts c = r.counts();
        md.append("## Counts\n\n| read | duplicates | replayed (skipped) | to apply | applied | already in sink |\n")
            .append("| --- | --- | --- | --- | --- | --- |\n| ").append(c.read()).append(" | ").append(c.duplicates())
            .append(" | ").append(c.replayed()).append(" | ").append(c.toApply()).append(" | ").append(c.applied())
            .append(" | ").append(c.alreadyInSink()).append(" |\n\n");
        if (!r.valuePolicy().isEmpty()) {
            md.append("## Value policies\n\n| column | policy | values changed |\n| --- | --- | --- |\n");
            r.valuePolicy().forEach(p -> md.append("| ").append(p.column()).append(" | ").append(p.policy())
                .append(" | ").append(p.changed()).append(" |\n"));
            md.append('\n');
        }
        if (r.retries() != null) {
            md.append("## Retries\n\n").append(r.retries().retries()).append(" of ").append(r.retries().maxRetries())
                .append(" retries (").append(r.retries().spentMillis()).append(" of ")
                .append(r.retries().maxTimeMillis()).append(" ms)");
            r.retries().byKind().forEach((k, v) -> md.append(", `").append(k).append("` ").append(v));
            md.append(r.retries().budgetExhausted() ? ", budget spent" : "").append("\n\n");
        }
        md.append("## Sink receipt\n\n");
        SinkReceipt s = r.sinkReceipt();
        if (s == null) {
            md.append("No sink apply in this tick.\n\n");
        } else {
            md.append("- passed: ").append(s.passed()).append(", durable: ").append(s.durable())
                .append("\n- target: ").append(s.target()).append("\n- ").append(s.message()).append("\n\n");
        }
        md.append("## Blockers\n\n");
        if (r.blockers().isEmpty()) {
            md.append("None.\n\n");
        } else {
            md.append("| code | subject | message |\n| --- | --- | --- |\n");
            r.blockers().forEach(b -> md.append("| `").append(b.code()).append("` | `").append(b.subject())
                .append("` | ").append(b.message().replace("|", "\\|")).append(" |\n"));
            md.append("\nSee the runbook in docs/cdc.md. Promote the checkpoint only after passed and committed.\n\n");
        }
        md.append("## Timings\n\n");
        r.metrics().stepMillis().entrySet().stream().sorted(Map.Entry.comparingByKey())
            .forEach(e -> md.append("- ").append(e.getKey()).append(": ").append(e.getValue()).append(" ms\n"));
        md.append("- total: ").append(r.metrics().durationMs()).append(" ms (started ").append(r.startedAt())
            .append(", finished ").append(r.finishedAt()).append("); setup before the first step: ")
            .append(r.metrics().setupMs()).append(" ms\n");
        return md.toString();
    }

    private static void row(StringBuilder md, String label, Map<String, Object> o) {
        if (o == null) {
            md.append("| ").append(label).append(" | - | - | - |\n");
        } else {
            md.append("| ").append(label).append(" | ").append(o.get("position")).append(" | ")
                .append(o.get("backend")).append(" | ").append(o.get("snapshot_complete")).append(" |\n");
        }
    }
}
