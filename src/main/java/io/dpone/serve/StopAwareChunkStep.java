package io.dpone.serve;

import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Bound over the transfer routes' per-chunk step in {@code dpone serve} ({@code loadChunk} of the streaming routes,
 * {@code uploadChunk} of the object-storage routes): once the process is stopping, the
 * chunk being loaded finishes and the next one is refused with {@code serve.shutdown_interrupted}. The shared
 * error policy then stops the reader and drops the run's own staging, and the job keeps its run id for the next
 * start, which resumes it (a full refresh restarts its staging under the same run id; the target is untouched).
 */
public final class StopAwareChunkStep implements Processor {
    private final Processor delegate;
    private final ShutdownSignal signal;

    public StopAwareChunkStep(Processor delegate, ShutdownSignal signal) {
        this.delegate = delegate;
        this.signal = signal;
    }

    @Override
    public void process(Exchange exchange) throws Exception {
        if (signal.stopping()) {
            throw new DponeException(BlockerCode.SERVE_SHUTDOWN_INTERRUPTED, "serve",
                "the process is stopping; the run stopped at a chunk boundary and resumes with the same run id");
        }
        delegate.process(exchange);
    }
}
