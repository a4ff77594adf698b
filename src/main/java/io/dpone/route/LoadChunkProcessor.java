package io.dpone.route;

import io.dpone.clickhouse.ClickHouseOperations;
import io.dpone.clickhouse.ChunkLoads.ChunkInsert;
import io.dpone.source.SourceColumn;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/** Loads one RowBinary chunk into the staging table (the split body), then deletes the spooled file. */
public final class LoadChunkProcessor implements Processor {
    @Override
    public void process(Exchange exchange) {
        Chunk chunk = exchange.getIn().getBody(Chunk.class);
        TransferRun run = exchange.getProperty(RouteProperties.RUN, TransferRun.class);
        run.chunkReached();
        long t0 = System.nanoTime();
        run.clickhouse().operations().insertChunk(insertOf(run, chunk));
        try {
            Files.deleteIfExists(chunk.file());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        run.counters().chunkLoaded(chunk.rows(), chunk.bytes());
        run.plan().progress().chunkDone(run.counters().chunks());
        run.counters().addStep("clickhouse_load", t0);
        run.countLoadedChunk();
    }

    /**
     * The insert that loads {@code chunk} (a file in the run's format) into the run's staging table, with the
     * deduplication token {@code <load id>:<chunk index>}: unique per attempt and chunk, so a retry after a transient
     * fault (issue 35) adds no rows when the first delivery landed, whole or in part (the staging table keeps a
     * {@code non_replicated_deduplication_window}, {@link StagingDdl}).
     */
    static ChunkInsert insertOf(TransferRun run, Chunk chunk) {
        return new ChunkInsert(run.plan().manifest().sink().stagingSchema(), run.stagingTable(),
            run.table().columns().stream().map(SourceColumn::name).toList(),
            run.table().columns().stream().map(run.format()::readExpression).toList(), run.loadStamp(), chunk.file(),
            run.format().clickHouseFormat(), run.format().structure(run.table().columns()),
            ClickHouseOperations.settings(run.format().insertSettings()), run.plan().loadId() + ":" + chunk.index());
    }
}
