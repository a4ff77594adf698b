package io.dpone.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.connect.Redactor;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The page escapes every value into HTML after the redaction layer: markup in a message stays text, a planted secret,
 * a JDBC URL and a local path never reach the page; blockers carry their line of docs/blockers.md; the run history
 * keeps the last runs and serves only the evidence of runs it still knows.
 */
class StatusPageTest {
    static final String SECRET = "planted-Page-S3cret-5521";

    @Test
    void everyValueIsRedactedThenEscaped() {
        Redactor.global().registerSecret(SECRET);
        StatusSnapshot.Run run = new StatusSnapshot.Run("sales-1", "failed", Instant.parse("2026-01-01T00:00:00Z"), 5,
            1500, List.of(new StatusSnapshot.Gate("row_count", "failed", Map.of("source_rows", "5", "target_rows",
                "4"))), List.of(new StatusSnapshot.Blocker("source.read_failed", "source",
                "<script>alert(1)</script> at jdbc:sqlserver://db.internal:1433;user=sa password " + SECRET
                    + " in /home/someone/private/dump.txt", Runbook.load().line("source.read_failed"))),
            List.of("run_record.json"));
        StatusSnapshot.Job job = new StatusSnapshot.Job("sales", "every 1h", "typed_binary_streaming",
            "mssql: dbo.sales", "ch: analytics.sales", "", "", 0, 0, 0, 1, 1, List.of(run));
        String html = new StatusPage("/observe/status").render(new StatusSnapshot(Instant.now(), List.of(job),
            List.of(), List.of()));
        assertFalse(html.contains("<script>"), "markup in a value is escaped");
        assertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), html);
        for (String leak : List.of(SECRET, "db.internal", "jdbc:sqlserver", "/home/someone")) {
            assertFalse(html.contains(leak), "the page shows " + leak);
        }
        assertTrue(html.contains("What to do: check the source; rerun with the same run id"), html);
        assertTrue(html.contains("row_count: failed"), html);
        assertTrue(html.contains("href=\"/observe/status/evidence/sales-1/run_record.json\""), html);
    }

    @Test
    void theRunbookHasALineForEveryDocumentedCode() {
        Runbook runbook = Runbook.load();
        assertTrue(runbook.size() > 100, "docs/blockers.md is packaged: " + runbook.size());
        assertEquals("fix the table or column name", runbook.line("source.table_missing"));
        assertEquals(Runbook.FALLBACK, runbook.line("no.such_code"));
    }

    @Test
    void theHistoryKeepsTheLastRunsAndOnlyTheirEvidence() {
        RunHistory history = new RunHistory();
        for (int i = 1; i <= RunHistory.KEEP + 2; i++) {
            history.record("sales", run("sales-" + i), Map.of("run_record.json", Path.of("r" + i + ".json")), false);
        }
        assertEquals(RunHistory.KEEP, history.last("sales").size());
        assertEquals("sales-" + (RunHistory.KEEP + 2), history.last("sales").get(0).runId(), "newest first");
        assertTrue(history.evidence("sales-1", "run_record.json").isEmpty(), "an evicted run serves nothing");
        assertEquals(Path.of("r7.json"), history.evidence("sales-7", "run_record.json").orElseThrow());
        assertTrue(history.evidence("sales-7", "../../etc/passwd").isEmpty());

        history.record("orders", run("cdc-1"), Map.of("cdc_runtime_run.json", Path.of("out.json")), true);
        history.record("orders", run("cdc-2"), Map.of("cdc_runtime_run.json", Path.of("out.json")), true);
        assertTrue(history.evidence("cdc-1", "cdc_runtime_run.json").isEmpty(), "rewritten by the next tick");
        assertEquals(List.of(), history.last("orders").get(1).evidence());
        assertEquals(List.of("cdc_runtime_run.json"), history.last("orders").get(0).evidence());
    }

    private static StatusSnapshot.Run run(String id) {
        return new StatusSnapshot.Run(id, "passed", Instant.now(), 1, 1, List.of(), List.of(), List.of());
    }
}
