package io.dpone.route;

import io.dpone.clickhouse.TableAdmin;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.quality.GateResult;
import io.dpone.report.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * The cleanup audit gate: after publication nothing of this run may remain: no staging table, no spooled chunk,
 * no object under the run's prefix, no temporary file of its run journal (a crash between writing and renaming the
 * journal leaves one; the next attempt's journal write removes it, so one counted here could not be removed).
 * Staging tables of other run ids are reported (they may belong to a concurrent or crashed run) but not dropped.
 */
public final class CleanupAuditProcessor implements Processor {
    @Override
    public void process(Exchange exchange) {
        TransferRun run = exchange.getProperty(RouteProperties.RUN, TransferRun.class);
        var sink = run.plan().manifest().sink();
        TableAdmin admin = new TableAdmin(run.clickhouse());
        boolean stagingLeft = admin.exists(sink.stagingSchema(), run.stagingTable());
        long spoolLeft = 0;
        if (run.spoolDir() != null) {
            try {
                if (Files.isDirectory(run.spoolDir())) {
                    try (var files = Files.list(run.spoolDir())) {
                        spoolLeft = files.count();
                    }
                    if (spoolLeft == 0) {
                        Files.delete(run.spoolDir());
                    }
                }
            } catch (IOException e) {
                spoolLeft = -1;
            }
        }
        // the run journal's temporary files: removed before each journal write, so one left is one that could not be
        long journalTempsLeft = AtomicFiles.staleTemps(RunJournal.path(run));
        ObjectStaging staging = run.resources().objectStaging();
        long objectsLeft = staging == null ? 0 : staging.remaining();
        List<String> others = admin.tablesWithPrefix(sink.stagingSchema(),
            StagingNames.stagingPrefix(sink.table().name()));
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("own_staging_tables_left", stagingLeft ? 1 : 0);
        d.put("spooled_chunks_left", spoolLeft);
        d.put("staged_objects_left", objectsLeft);
        d.put("journal_temps_left", journalTempsLeft);
        d.put("other_runs_staging_tables", others.size());
        if (stagingLeft || spoolLeft != 0 || objectsLeft != 0 || journalTempsLeft != 0) {
            Blocker b = Blocker.of(BlockerCode.QUALITY_STALE_ARTIFACTS, "cleanup",
                "run artifacts remain after publication", d);
            run.addGate(GateResult.failed("cleanup_audit", d, b));
            throw new DponeException(b);
        }
        run.addGate(GateResult.passed("cleanup_audit", d));
    }
}
