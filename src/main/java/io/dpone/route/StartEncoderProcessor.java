package io.dpone.route;

import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Step {@code start_encoder}: waits until the source side reads (its cursors open, the first fetch started), tells the
 * chunk producer which rows a kept staging table already holds, and starts the encoder, which from now on spools
 * chunks for the route's split ({@link RouteProperties#CHUNKS}). On the single-file object-storage route the one file
 * goes up part by part while it is written. Encoding the first chunk overlaps the staging DDL of the next step; no
 * chunk is loaded before the prepare steps end.
 */
public final class StartEncoderProcessor implements Processor {
    @Override
    public void process(Exchange exchange) {
        TransferRun run = exchange.getProperty(RouteProperties.RUN, TransferRun.class);
        long t0 = System.nanoTime();
        ChunkProducer producer = run.resources().opening().reading();
        StagingResume.Kept kept = run.keptStaging();
        if (kept != null) {
            producer.skipStaged(kept.staged());
        }
        ObjectStaging objects = run.resources().objectStaging();
        if (objects != null && "single".equals(exchange.getProperty(RouteProperties.CHUNKING, String.class))) {
            WorkerThreads workers = WorkerThreads.of(exchange.getContext());
            producer.streamChunks(file -> GrowingFileUpload.start(objects.store().store().startUpload(
                objects.key(file.getFileName().toString())), file, GrowingFileUpload.PART_SIZE, workers));
        }
        producer.start(); // if a later step fails, the run's close cancels the producer
        exchange.setProperty(RouteProperties.CHUNKS, producer);
        run.counters().addStep("prepare", t0);
    }
}
