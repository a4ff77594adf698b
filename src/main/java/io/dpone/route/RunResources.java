package io.dpone.route;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.source.SourceReader;
import java.util.function.Supplier;

/**
 * The closeable things a run opens: the ClickHouse endpoint, the source reader, the chunk producer, the object
 * staging and its pull thread. Each is opened at most once; the owner (the runner that created the run) closes them all, in reverse
 * order of dependency, exactly once. Steps use them and never close them.
 */
public final class RunResources implements AutoCloseable {
    private ClickHouseEndpoint clickhouse;
    private SourceReader source;
    private ChunkProducer producer;
    private ObjectStaging objectStaging;
    private ChunkPulls pulls;
    private SourceOpening opening;
    private boolean closed;

    /** The run's ClickHouse endpoint, opened with {@code open} on first use. */
    public synchronized ClickHouseEndpoint clickhouse(Supplier<ClickHouseEndpoint> open) {
        ensureOpen();
        if (clickhouse == null) {
            clickhouse = open.get();
        }
        return clickhouse;
    }

    /** The run's ClickHouse endpoint; fails if no step opened it yet. */
    public synchronized ClickHouseEndpoint clickhouse() {
        return Once.get(clickhouse, "ClickHouse endpoint");
    }

    public synchronized boolean hasClickHouse() {
        return clickhouse != null;
    }

    public synchronized SourceReader source() {
        return Once.get(source, "source reader");
    }

    public synchronized void source(SourceReader reader) {
        ensureOpen();
        source = Once.set(source, reader, "source reader");
    }

    public synchronized ChunkProducer producer() {
        return Once.get(producer, "chunk producer");
    }

    public synchronized boolean hasProducer() {
        return producer != null;
    }

    public synchronized void producer(ChunkProducer p) {
        ensureOpen();
        producer = Once.set(producer, p, "chunk producer");
    }

    /** The run's object staging, or null for a route that stages no objects. */
    public synchronized ObjectStaging objectStaging() {
        return objectStaging;
    }

    public synchronized void objectStaging(ObjectStaging staging) {
        ensureOpen();
        objectStaging = Once.set(objectStaging, staging, "object staging");
    }

    /** The run's pull thread ({@link ChunkPulls}), created with {@code open} on first use. */
    synchronized ChunkPulls pulls(Supplier<ChunkPulls> open) {
        ensureOpen();
        if (pulls == null) {
            pulls = open.get();
        }
        return pulls;
    }

    /** The source side's opening, on its worker thread ({@code open_source}); registered once. */
    synchronized void opening(SourceOpening o) {
        ensureOpen();
        opening = Once.set(opening, o, "source opening");
    }

    synchronized SourceOpening opening() {
        return Once.get(opening, "source opening");
    }

    /**
     * Waits (interrupting it, within {@link WorkerThreads#STOP_MILLIS}) until the source side's opening has ended, so
     * nothing it opens outlives the run's close; nothing to wait for once it ended or when it never started. Not under
     * this object's lock: the opening registers what it opens here.
     */
    void abandonOpening() {
        SourceOpening o;
        synchronized (this) {
            o = opening;
        }
        if (o != null) {
            o.abandon();
        }
    }

    /** The run's pull thread, or null when no chunk was handed to it. */
    synchronized ChunkPulls pulls() {
        return pulls;
    }

    /**
     * Waits for the source side's opening to end, then stops the producer first (it reads from the source) and the
     * pull thread, then closes the source, the store and the endpoint.
     */
    @Override
    public void close() {
        abandonOpening();
        closeOpened();
    }

    private synchronized void closeOpened() {
        if (closed) {
            return;
        }
        closed = true;
        if (producer != null) {
            producer.close();
        }
        if (pulls != null) {
            pulls.close();
        }
        if (source != null) {
            source.close();
        }
        if (objectStaging != null) {
            objectStaging.store().close();
        }
        if (clickhouse != null) {
            clickhouse.close();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the run's resources are already closed");
        }
    }
}
