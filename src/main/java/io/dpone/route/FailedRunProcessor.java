package io.dpone.route;

import io.dpone.clickhouse.TableAdmin;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shared error policy's step: stops the source reader, deletes spooled chunks, and drops this run's own
 * staging table unless the run already published (then the leftover is the predecessor, dropped on resume).
 * The target is never touched here. The exception still propagates to the caller.
 */
public final class FailedRunProcessor implements Processor {
    private static final Logger LOG = LoggerFactory.getLogger(FailedRunProcessor.class);

    @Override
    public void process(Exchange exchange) {
        TransferRun run = exchange.getProperty(RouteProperties.RUN, TransferRun.class);
        if (run == null) {
            return;
        }
        if (run.producer != null) {
            run.producer.close();
        }
        deleteSpool(run.spoolDir);
        if (!run.published && run.clickhouse != null && run.stagingTable != null) {
            try {
                new TableAdmin(run.clickhouse).drop(run.manifest.sink().stagingSchema(), run.stagingTable);
            } catch (RuntimeException e) {
                LOG.warn("staging table of run {} could not be dropped; a resume with the same run id drops it",
                    run.runKey);
            }
        }
    }

    private static void deleteSpool(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            LOG.warn("spooled chunks could not be deleted");
        }
    }
}
