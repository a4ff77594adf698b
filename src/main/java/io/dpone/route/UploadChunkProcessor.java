package io.dpone.route;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Uploads one spooled chunk under the run's object prefix (multipart when large), then deletes the local file. A
 * chunk that went up while it was written ({@link Chunk#streamed()}, the single-file route) is only waited for; its
 * {@code upload} time is then the upload thread's own.
 */
public final class UploadChunkProcessor implements Processor {
    /** Exchange property holding the uploaded chunk's object key. */
    public static final String KEY = "dponeChunkKey";

    @Override
    public void process(Exchange exchange) {
        Chunk chunk = exchange.getIn().getBody(Chunk.class);
        TransferRun run = exchange.getProperty(RouteProperties.RUN, TransferRun.class);
        run.chunkReached();
        long t0 = System.nanoTime();
        String key = run.resources().objectStaging().key(chunk.file().getFileName().toString());
        if (chunk.streamed() != null) {
            chunk.streamed().await();
        } else {
            run.resources().objectStaging().store().store().put(key, chunk.file());
        }
        try {
            Files.deleteIfExists(chunk.file());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        exchange.setProperty(KEY, key);
        run.counters().chunkUploaded(chunk.bytes());
        run.plan().progress().chunkDone(run.counters().chunks());
        if (chunk.streamed() != null) {
            run.counters().addMillis("upload", chunk.streamed().busyMillis());
        } else {
            run.counters().addStep("upload", t0);
        }
    }
}
