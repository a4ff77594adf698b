package io.dpone.route;

import io.dpone.connect.ConnectionType;
import io.dpone.format.ChunkFormat;
import io.dpone.quality.SourceStatsCollector;
import io.dpone.source.RangeCursors;
import io.dpone.source.ReadPlan;
import io.dpone.source.RowCursor;
import io.dpone.source.SourceReader;
import io.dpone.source.SourceTable;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * The source side of the prepare step, on a worker thread of its own while the route's thread prepares the sink:
 * connect, describe (and check the manifest's column names against the description), estimate the rows, plan the
 * read, open the cursors and start reading them (the first fetch). The chunk producer it makes is registered with
 * the run's resources as soon as it exists, so whoever closes the run stops its readers; its encoder is started by
 * the {@code start_encoder} step once the staging decision is made ({@link ChunkProducer#skipStaged}).
 *
 * <p>Started only after the engine is open: the embedded engine's first connect replaces the JVM's signal handlers
 * until it returns, and no other Java thread of the run may be running meanwhile (see {@link OpenEngineProcessor}).
 */
final class SourceOpening {
    private final CompletableFuture<SourceTable> described = new CompletableFuture<>();
    private final CompletableFuture<ChunkProducer> reading = new CompletableFuture<>();
    private WorkerThreads.Worker worker;

    private SourceOpening() {
    }

    /**
     * Starts opening the run's source. {@code producer} makes the chunk producer over the opened cursors (once the
     * table is described).
     */
    static SourceOpening start(TransferRun run, ChunkFormat format, ProducerFactory producer, WorkerThreads workers) {
        SourceOpening s = new SourceOpening();
        s.worker = workers.start("dpone-source-open", () -> s.open(run, format, producer));
        return s;
    }

    /** Makes the producer over {@code cursors} of the described {@code table}. */
    interface ProducerFactory {
        ChunkProducer make(List<RowCursor> cursors, SourceTable table);
    }

    private void open(TransferRun run, ChunkFormat format, ProducerFactory factory) {
        try {
            RunPlan plan = run.plan();
            var src = plan.manifest().source();
            Supplier<SourceReader> openSource = () -> plan.connectors().source(plan.context().resolve(
                src.connectionRef(), ConnectionType.MSSQL, "source.connection_ref"));
            SourceReader source = openSource.get();
            try {
                run.resources().source(source);
            } catch (IllegalStateException closed) { // the run ended meanwhile
                source.close();
                throw closed;
            }
            run.described(source.describe(src.table(), src.columns(), src.valuePolicies()), format, Instant.now());
            NamedColumns.check(plan.manifest(), run.table()); // before the staging table or any chunk exists
            described.complete(run.table());
            plan.progress().described(run.table());
            source.estimatedRows(run.table()).ifPresent(n -> plan.progress().rowsExpected(
                plan.rowLimit() > 0 ? Math.min(n, plan.rowLimit()) : n));
            ReadPlan readPlan = ReadPlan.plan(source, run.table(), src.parallelReaders(), src.parallelMinRows(),
                plan.rowLimit());
            if (readPlan.note() != null) {
                run.addNote(readPlan.note());
            }
            List<RowCursor> cursors = RangeCursors.open(source, openSource::get, run.table(), src.fetchSize(),
                plan.rowLimit(), readPlan, run.retries(), counts -> run.addNote("key ranges read: rows per range "
                    + java.util.Arrays.stream(counts).mapToObj(Long::toString)
                        .collect(java.util.stream.Collectors.joining("/"))
                    + ", spread " + ReadPlan.spread(io.dpone.source.KeyBoundaries.spread(counts))));
            ChunkProducer producer = factory.make(cursors, run.table());
            try {
                run.resources().producer(producer);
            } catch (IllegalStateException closed) {
                producer.close(); // closes the cursors
                throw closed;
            }
            producer.startReading();
            reading.complete(producer);
        } catch (Throwable e) {
            described.completeExceptionally(e);
            reading.completeExceptionally(e);
        }
    }

    /** The described source table; rethrows the source side's failure (a typed one as it was thrown). */
    SourceTable described() {
        return await(described);
    }

    /** The chunk producer, its readers started and its encoder not; rethrows the source side's failure. */
    ChunkProducer reading() {
        return await(reading);
    }

    /**
     * The prepare step failed on its side: waits (interrupting it, within {@link WorkerThreads#STOP_MILLIS}) until the
     * source side has ended, so nothing it opens outlives the run's close.
     */
    void abandon() {
        WorkerThreads.stop(worker);
    }

    private static <T> T await(CompletableFuture<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the source was being opened");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException("the source could not be opened", cause);
        }
    }
}
