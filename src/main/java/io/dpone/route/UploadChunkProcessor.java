package io.dpone.route;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/** Uploads one spooled chunk under the run's object prefix (multipart when large), then deletes the local file. */
public final class UploadChunkProcessor implements Processor {
    /** Exchange property holding the uploaded chunk's object key. */
    public static final String KEY = "dponeChunkKey";

    @Override
    public void process(Exchange exchange) {
        Chunk chunk = exchange.getIn().getBody(Chunk.class);
        TransferRun run = exchange.getProperty(RouteProperties.RUN, TransferRun.class);
        long t0 = System.nanoTime();
        String key = run.resources().objectStaging().key(chunk.file().getFileName().toString());
        run.resources().objectStaging().store().store().put(key, chunk.file());
        try {
            Files.deleteIfExists(chunk.file());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        exchange.setProperty(KEY, key);
        run.counters().chunkUploaded(chunk.bytes());
        run.plan().progress().chunkDone(run.counters().chunks());
        run.counters().addStep("upload", t0);
    }
}
