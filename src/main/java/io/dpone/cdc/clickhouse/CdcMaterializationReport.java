package io.dpone.cdc.clickhouse;

import io.dpone.error.Blocker;
import io.dpone.report.ReportWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The CDC materializer's report as files: {@link #JSON_FILE} (the report map, schema {@link #SCHEMA}) and
 * {@link #MD_FILE} (its Markdown summary), both written through the redaction layer. {@link CdcMaterializer} runs
 * the materialization and fills the map; this class only renders it.
 */
public final class CdcMaterializationReport {
    public static final String SCHEMA = "dpone.cdc_materialization.v1";
    public static final String JSON_FILE = "cdc_materialization.json";
    public static final String MD_FILE = "cdc_materialization.md";
    /** The report's entries printed in the Markdown summary after the header, in this order, when present. */
    private static final List<String> SUMMARY = List.of("mode", "rows_in", "keys_in", "keys_out", "deletes_applied",
        "version_range", "batches", "applied_version", "reseed", "serving_view", "parts", "compaction", "publish");

    private CdcMaterializationReport() {
    }

    /** Writes {@code report} into {@code outputDir} as {@link #JSON_FILE} and {@link #MD_FILE}. */
    static void write(Path outputDir, Map<String, Object> report) {
        ReportWriter.writeJson(outputDir.resolve(JSON_FILE), report);
        ReportWriter.writeMarkdown(outputDir.resolve(MD_FILE), markdown(report));
    }

    /** The Markdown summary: the header, the summary entries present, then a table of the blockers if any. */
    static String markdown(Map<String, Object> r) {
        StringBuilder md = new StringBuilder("# CDC materialization\n\n");
        md.append("- passed: ").append(r.get("passed")).append('\n');
        md.append("- cdc dataset: `").append(r.get("cdc_dataset")).append("`\n");
        md.append("- target dataset: `").append(r.get("target_dataset")).append("`\n");
        md.append("- unique keys: ").append(r.get("unique_keys")).append('\n');
        md.append("- delete mode: ").append(r.get("delete_mode")).append('\n');
        for (String k : SUMMARY) {
            if (r.containsKey(k)) {
                md.append("- ").append(k.replace('_', ' ')).append(": ").append(r.get(k)).append('\n');
            }
        }
        Object blockers = r.get("blockers");
        if (blockers instanceof List<?> list && !list.isEmpty()) {
            md.append("\n## Blockers\n\n| code | subject | message |\n| --- | --- | --- |\n");
            for (Object b : list) {
                Blocker x = (Blocker) b;
                md.append("| ").append(x.code()).append(" | ").append(x.subject()).append(" | ")
                    .append(x.message().replace("|", "\\|")).append(" |\n");
            }
        }
        return md.toString();
    }
}
