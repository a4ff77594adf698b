package io.dpone.cdc.verify;

import io.dpone.error.Blocker;
import java.util.List;
import java.util.Map;

/** {@code cdc_verify.md}: the verification for a reviewer, counts only. */
final class CdcVerifyMarkdown {
    private CdcVerifyMarkdown() {
    }

    static String render(Map<String, Object> r) {
        StringBuilder md = new StringBuilder("# CDC verification\n\n");
        md.append("| key | value |\n| --- | --- |\n");
        for (String k : List.of("run_id", "verdict", "passed", "serving_dataset", "serving_mode", "delete_mode",
            "buckets", "source_rows", "serving_rows", "differing_in_scan")) {
            md.append("| ").append(k).append(" | ").append(r.get(k)).append(" |\n");
        }
        if (r.get("stream") instanceof Map<?, ?> s) {
            md.append("| stream | ").append(s.get("pipeline_name")).append(" (").append(s.get("backend")).append("), ")
                .append(s.get("source_schema")).append('.').append(s.get("source_table")).append(" -> ")
                .append(s.get("cdc_dataset")).append(" |\n");
        }
        if (r.get("position") instanceof Map<?, ?> p) {
            md.append("| position | ").append(p.get("before")).append(" .. ").append(p.get("after")).append(" |\n");
        }
        buckets(md, "Mismatched buckets", r.get("mismatched_buckets"));
        if (r.get("in_flight_buckets") instanceof List<?> f && !f.isEmpty()) {
            md.append("\nBuckets that differed only by keys changed after the horizon (in flight): ").append(f)
                .append('\n');
        }
        if (r.get("repair") instanceof Map<?, ?> rep) {
            md.append("\n## Repair\n\n| key | value |\n| --- | --- |\n");
            rep.forEach((k, v) -> md.append("| ").append(k).append(" | ").append(v).append(" |\n"));
        }
        if (r.get("after_repair") instanceof Map<?, ?> after) {
            buckets(md, "Mismatched buckets after the repair", after.get("mismatched_buckets"));
        }
        if (r.get("blockers") instanceof List<?> list && !list.isEmpty()) {
            md.append("\n## Blockers\n\n| code | subject | message |\n| --- | --- | --- |\n");
            for (Object b : list) {
                Blocker x = (Blocker) b;
                md.append("| ").append(x.code()).append(" | ").append(x.subject()).append(" | ")
                    .append(x.message().replace("|", "\\|")).append(" |\n");
            }
        }
        return md.toString();
    }

    private static void buckets(StringBuilder md, String title, Object list) {
        if (!(list instanceof List<?> l) || l.isEmpty()) {
            return;
        }
        md.append("\n## ").append(title).append("\n\n| bucket | key-hash range | source rows | serving rows | "
            + "missing in serving | extra in serving | values differ | moving keys excluded |\n"
            + "| --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for (Object o : l) {
            Map<?, ?> b = (Map<?, ?>) o;
            Map<?, ?> range = (Map<?, ?>) b.get("key_hash_range");
            md.append("| ").append(b.get("bucket")).append(" | ").append(range.get("from")).append("..")
                .append(range.get("to")).append(" | ").append(b.get("source_rows")).append(" | ")
                .append(b.get("serving_rows")).append(" | ").append(b.get("missing_in_serving")).append(" | ")
                .append(b.get("extra_in_serving")).append(" | ").append(b.get("values_differ")).append(" | ")
                .append(b.get("moving_keys_excluded")).append(" |\n");
        }
    }
}
