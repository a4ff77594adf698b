package io.dpone.route;

import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.format.ByteBuf;
import io.dpone.format.ChunkFormat;
import io.dpone.format.ChunkWriter;
import io.dpone.format.RowBinaryEncoder;
import io.dpone.quality.SourceEvidence;
import io.dpone.quality.SourceStats;
import io.dpone.source.RowCursor;
import io.dpone.source.SourceTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * Reads the source ({@link RowPrefetcher}: its own thread, or one per primary-key range) and, on a second thread, encodes rows into chunk files
 * of the route's format of {@code chunkRows} rows, and
 * hands them to the route through a bounded queue (capacity 2), so reading/encoding overlaps loading while memory
 * stays bounded by one row buffer and two spooled chunks on disk. Every encoded row also goes to the run's
 * {@link SourceEvidence} (the source side of the quality gates). The route consumes it as an {@link Iterator} in a
 * streaming split.
 */
public final class ChunkProducer implements Iterator<Chunk>, AutoCloseable {
    private static final Object END = new Object();

    private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(2);
    /** Guards {@link #announced}; notified whenever the queue or the count changes (see {@link #hasNext()}). */
    private final Object signal = new Object();
    /** Chunks the encoder has spooled a row into: each is handed over unless the encoder fails or is closed. */
    private int announced;
    /** Chunks {@link #next()} returned (the route's thread only). */
    private int taken;
    private final RowPrefetcher reader;
    private final SourceTable table;
    private final ChunkFormat format;
    private final Path spoolDir;
    private final int chunkRows;
    private final Long maxBytes;
    private final SourceEvidence evidence;
    private final AtomicLong rowsRead = new AtomicLong();
    private final LongConsumer progress;
    private volatile boolean cancelled;
    private volatile SourceStats stats;
    private volatile long readNanos;
    private volatile long writeNanos;
    private final WorkerThreads workers;
    private WorkerThreads.Worker thread;
    private Object next;
    private Staged staged = (row, encoded, offsets) -> false;
    private java.util.function.Function<Path, GrowingFileUpload> streaming;
    private volatile GrowingFileUpload streamed;

    /**
     * Several cursors (key ranges of one table) feed the same bounded pipeline; row order is not kept.
     * {@code maxBytes} (null: no limit) bounds the encoded size of the whole table.
     */
    public ChunkProducer(List<RowCursor> cursors, SourceTable table, ChunkFormat format, Path spoolDir, int chunkRows,
                         Long maxBytes, SourceEvidence evidence, LongConsumer progress, WorkerThreads workers) {
        this.reader = new RowPrefetcher(cursors, table.columns().size(), workers);
        this.table = table;
        this.format = format;
        this.spoolDir = spoolDir;
        this.chunkRows = chunkRows;
        this.maxBytes = maxBytes;
        this.evidence = evidence;
        this.progress = progress;
        this.workers = workers;
    }

    /** Whether a source row is in the staging table already: by its values or by its RowBinary encoding. */
    @FunctionalInterface
    public interface Staged {
        boolean test(Object[] row, byte[] encoded, int[] offsets);
    }

    /**
     * Rows for which {@code staged} holds (already in the staging table, see {@link StagingResume}) still go to the
     * evidence but into no chunk. Set before {@link #start()}.
     */
    public void skipStaged(Staged staged) {
        requireNotStarted();
        this.staged = staged;
    }

    /**
     * Every chunk file starts uploading as soon as it is created, while the encoder writes it ({@code open} starts
     * the upload of a new file); the chunk handed over carries the upload ({@link Chunk#streamed()}). A chunk that
     * fails or is left empty has its upload aborted, and so does the one in progress when the producer is closed.
     * Set before {@link #start()}.
     */
    public void streamChunks(java.util.function.Function<Path, GrowingFileUpload> open) {
        requireNotStarted();
        this.streaming = open;
    }

    private void requireNotStarted() {
        if (thread != null) {
            throw new IllegalStateException("the producer has started");
        }
    }

    /**
     * Starts reading the source before the encoder starts: the readers fill their bounded queue (the first fetch)
     * while the route still prepares. {@link #start()} calls it; a closed producer reads nothing.
     */
    public synchronized void startReading() {
        if (!cancelled) {
            reader.start();
        }
    }

    public void start() {
        startReading();
        thread = workers.start("dpone-chunk-encoder", this::produce);
    }

    private void produce() {
        int columns = table.columns().size();
        long rows = 0;
        long bytes = 0;
        long writing = 0;
        long started = System.nanoTime();
        Object[] row;
        RowPrefetcher source = reader;
        ByteBuf buf = new ByteBuf(64 * 1024);
        RowBinaryEncoder encoder = new RowBinaryEncoder(table.columns());
        int[] offsets = new int[columns + 1];
        try {
            int index = 0;
            boolean more = true;
            while (more && !cancelled) {
                Path file = spoolDir.resolve(String.format("chunk-%06d.%s", index, format.extension()));
                long chunkRowCount = 0;
                long chunkBytes;
                long w0 = System.nanoTime();
                ChunkWriter out = format.open(file, table.columns());
                writing += System.nanoTime() - w0;
                GrowingFileUpload upload = null;
                if (streaming != null) {
                    try {
                        upload = streaming.apply(file);
                    } catch (RuntimeException e) {
                        closeQuietly(out);
                        throw e;
                    }
                    streamed = upload;
                }
                boolean completed = false;
                try {
                    while (chunkRowCount < chunkRows && (more = (row = source.next()) != null)) {
                        buf.reset();
                        encoder.encode(row, buf, offsets);
                        evidence.row(row, buf.array(), offsets);
                        if (staged.test(row, buf.array(), offsets)) {
                            // counted at its RowBinary size: the chunk format's size of a row never spooled is unknown
                            bytes += buf.length();
                        } else {
                            long w1 = System.nanoTime();
                            out.write(row, buf);
                            writing += System.nanoTime() - w1;
                            if (chunkRowCount++ == 0) {
                                announce(); // this chunk will be handed over: hasNext() may say so now
                            }
                        }
                        if ((++rows & 0x3FF) == 0) {
                            rowsRead.set(rows);
                            progress.accept(rows);
                        }
                    }
                    long w2 = System.nanoTime();
                    out.close();
                    writing += System.nanoTime() - w2;
                    writeNanos = writing;
                    completed = true;
                    chunkBytes = out.bytes();
                } finally {
                    if (!completed) {
                        closeQuietly(out);
                        abort(upload);
                    }
                }
                bytes += chunkBytes;
                if (maxBytes != null && bytes > maxBytes) {
                    abort(upload);
                    Files.deleteIfExists(file);
                    throw new DponeException(BlockerCode.SOURCE_MAX_BYTES_EXCEEDED, "sink.strategy.max_source_bytes",
                        "the encoded source exceeds max_source_bytes (" + maxBytes + ")");
                }
                if (chunkRowCount == 0) {
                    abort(upload);
                    Files.deleteIfExists(file);
                } else {
                    if (upload != null) {
                        upload.finish(Files.size(file));
                    }
                    put(new Chunk(index++, file, chunkRowCount, chunkBytes, upload));
                }
            }
            rowsRead.set(rows);
            progress.accept(rows);
            readNanos = System.nanoTime() - started;
            stats = evidence.finish(bytes);
            put(END);
        } catch (RuntimeException | IOException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            queue.clear();
            queue.offer(e instanceof IOException io ? new UncheckedIOException(io) : e);
            signal();
        } finally {
            source.close();
        }
    }

    private static void abort(GrowingFileUpload upload) {
        if (upload != null) {
            upload.abort();
        }
    }

    private static void closeQuietly(ChunkWriter out) {
        try {
            out.close();
        } catch (RuntimeException ignored) {
            // the chunk is abandoned with its run; the failure that got us here is the one reported
        }
    }

    private void put(Object item) throws InterruptedException {
        while (!cancelled) {
            if (queue.offer(item, 200, TimeUnit.MILLISECONDS)) {
                signal();
                return;
            }
        }
    }

    private void announce() {
        synchronized (signal) {
            announced++;
            signal.notifyAll();
        }
    }

    private void signal() {
        synchronized (signal) {
            signal.notifyAll();
        }
    }

    /**
     * Whether another chunk comes. It answers as soon as it knows: a chunk is waiting, the source ended (or failed),
     * or the encoder has spooled the first row of the next chunk, which it then hands over unless it fails. It does
     * not wait for that chunk to be complete: Camel's streaming split asks {@code hasNext()} right after each
     * {@code next()}, before it processes the chunk it got, so waiting here held every chunk back until the encoder
     * had finished the one after it (the first load started one chunk late, measured in bench/README.md).
     */
    @Override
    public boolean hasNext() {
        if (next == null) {
            synchronized (signal) {
                try {
                    while ((next = queue.poll()) == null && (announced <= taken || cancelled)) {
                        signal.wait(200); // the bound only guards against a missed wake-up
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for the source reader");
                }
            }
            if (next == null) {
                return true; // being written: next() waits for it
            }
        }
        if (next instanceof Exception e) { // the reader's failure (an interrupt arrives as InterruptedException)
            next = END;
            throw e instanceof RuntimeException r ? r : new IllegalStateException("the source reader stopped", e);
        }
        return next != END;
    }

    /** The next chunk: waits until the encoder has completed it. */
    @Override
    public Chunk next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        if (next == null) {
            try {
                next = queue.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the source reader");
            }
            if (!hasNext()) { // closed meanwhile: the announced chunk never came
                throw new NoSuchElementException();
            }
        }
        Chunk c = (Chunk) next;
        next = null;
        taken++;
        return c;
    }

    /** The source-side statistics; available once the iterator is exhausted. */
    public SourceStats stats() {
        if (stats == null) {
            throw new IllegalStateException("source not fully read");
        }
        return stats;
    }

    public long rowsRead() {
        return rowsRead.get();
    }

    /** The encoder thread's whole time, from the first row requested to the last chunk handed over. */
    public long readNanos() {
        return readNanos;
    }

    /**
     * The part of {@link #readNanos()} spent in the chunk writer (opening, writing rows into and closing chunk files;
     * for Parquet the columnar encoding and compression), timed around each writer call.
     */
    public long writeNanos() {
        return writeNanos;
    }

    @Override
    public void close() {
        synchronized (this) {
            cancelled = true; // no startReading() after this
        }
        WorkerThreads.stop(thread);
        reader.close(); // the encoder closes it too; here for a producer whose encoder never started
        // an upload whose chunk no step took over (a failed or cancelled run) must not complete its object later
        abort(streamed);
        // after a failure Camel's split drains the iterator to release what is left: leave it only the end marker,
        // or it waits forever for a chunk the stopped encoder will never put
        queue.clear();
        queue.offer(END);
        signal();
    }
}
