package io.dpone.route;

import io.dpone.format.ChunkFormat;
import io.dpone.format.ChunkFormats;
import io.dpone.manifest.ColumnarFastPath;
import io.dpone.quality.SourceStatsCollector;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Step {@code open_source}: starts the source side on a worker thread of its own ({@link SourceOpening}: connect,
 * describe, estimate, plan the read, open the cursors, first fetch, and the chunk producer over them in the route's
 * chunk format) and returns at once, so the next steps prepare the sink meanwhile. The opening is registered with the
 * run's resources: the error policy and the run's close wait for it to end, so nothing it opens outlives the run.
 */
public final class OpenSourceProcessor implements Processor {
    @Override
    public void process(Exchange exchange) {
        TransferRun run = exchange.getProperty(RouteProperties.RUN, TransferRun.class);
        long t0 = System.nanoTime();
        RunPlan plan = run.plan();
        var sink = plan.manifest().sink();
        var quality = plan.manifest().quality();
        ChunkFormat format = ChunkFormats.byName(exchange.getProperty(RouteProperties.FORMAT, String.class));
        WorkerThreads workers = WorkerThreads.of(exchange.getContext());
        int chunkRows = chunkRows(exchange, format, run);
        run.resources().opening(SourceOpening.start(run, format, (cursors, table) -> new ChunkProducer(cursors,
            table, format, run.spoolDir(), chunkRows, sink.maxSourceBytes(),
            new SourceStatsCollector(table, quality.hashSampleModulo(), quality.distinctColumns()),
            plan.progress()::rowsRead, workers), workers));
        run.counters().addStep("prepare", t0);
    }

    /**
     * Rows per chunk: {@code single} (route property {@code dponeChunking}) puts the whole table in one file;
     * Parquet routes take {@code columnar_fast_path.chunk_rows} when set; otherwise {@code source.options.chunk_rows}.
     */
    private static int chunkRows(Exchange exchange, ChunkFormat format, TransferRun run) {
        if ("single".equals(exchange.getProperty(RouteProperties.CHUNKING, String.class))) {
            return Integer.MAX_VALUE;
        }
        if ("Parquet".equals(format.clickHouseFormat())) {
            Integer columnar = ColumnarFastPath.of(run.plan().manifest().source().nativeTransfer())
                .map(ColumnarFastPath::chunkRows).orElse(null);
            if (columnar != null) {
                return columnar;
            }
        }
        return run.plan().manifest().source().chunkRows();
    }
}
