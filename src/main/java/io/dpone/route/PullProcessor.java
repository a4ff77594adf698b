package io.dpone.route;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.KnownSettings;
import io.dpone.clickhouse.MetadataColumns;
import io.dpone.format.ChunkFormat;
import io.dpone.source.SourceColumn;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * ClickHouse pulls staged Parquet into the staging table with {@code s3(...)} / {@code s3Cluster(...)}. In the
 * split it pulls the chunk just uploaded; after the split ({@code all: true}) it pulls the run prefix's glob in one
 * statement. {@code s3_throw_on_zero_files_match=1}: an empty glob fails instead of loading zero rows.
 */
public final class PullProcessor implements Processor {
    private static final String PARQUET_WATERMARK = "input_format_parquet_memory_high_watermark";

    private final boolean all;

    public PullProcessor(boolean all) {
        this.all = all;
    }

    @Override
    public void process(Exchange exchange) {
        TransferRun run = exchange.getProperty(RouteProperties.RUN, TransferRun.class);
        long t0 = System.nanoTime();
        String key = all ? run.resources().objectStaging().key("chunk-*." + run.format().extension())
            : exchange.getProperty(UploadChunkProcessor.KEY, String.class);
        List<String> columns = new ArrayList<>(run.table().columns().stream().map(SourceColumn::name).toList());
        columns.addAll(MetadataColumns.NAMES);
        String select = run.table().columns().stream().map(run.format()::readExpression)
            .collect(Collectors.joining(", "));
        String settings = settings(all, run.format()) + run.pullReadSettings(() -> readSettings(run.clickhouse()));
        run.clickhouse().execute("INSERT INTO " + ClickHouseSql.table(run.plan().manifest().sink().stagingSchema(),
            run.stagingTable()) + " (" + ClickHouseSql.idList(columns) + ") SELECT " + select + ", "
            + run.metadataValues() + " FROM "
            + run.resources().objectStaging().tableFunction(key, run.format().clickHouseFormat(),
                run.format().structure(run.table().columns()))
            + " SETTINGS " + settings);
        if (!all) {
            // the per-chunk routes count rows as they land; the one-statement pull counts them all at once
            run.counters().rowsPulled(exchange.getIn().getBody(Chunk.class).rows());
        } else {
            run.counters().rowsPulled(run.resources().producer().rowsRead());
        }
        run.counters().addStep("clickhouse_pull", t0);
        if (!all) {
            run.countLoadedChunk();
        }
    }

    /**
     * {@code input_format_parquet_memory_high_watermark = 128 MiB} where the server knows it (the Parquet reader's
     * prefetch budget, 4 GiB by default): {@code object_storage_pull.file} reads one whole-table file, and with the
     * default its peak RSS at 5M rows was 2,249 MiB, with 128 MiB 1,843 MiB (one run each, bench/README.md). Servers
     * older than the setting keep their default (the setting would fail the statement there).
     */
    static String readSettings(ClickHouseEndpoint ch) {
        return KnownSettings.of(ch, List.of(PARQUET_WATERMARK)).contains(PARQUET_WATERMARK)
            ? ", " + PARQUET_WATERMARK + " = " + (128L << 20) : "";
    }

    /**
     * {@code s3_throw_on_zero_files_match = 1} always. The one-statement pull of the whole table also squashes rows
     * into insert blocks of 100k rows / 32 MiB instead of the defaults (about 1M rows / 256 MiB): measured on chDB
     * (bench/README.md), a 1M-row Parquet pull took 1.35 s and 759 MiB instead of 2.61 s and 846 MiB, 5M rows 4.62 s
     * and 1,414 MiB instead of 5.58 s and 1,982 MiB. A per-chunk pull is one chunk, so it keeps the defaults.
     */
    static String settings(boolean all, ChunkFormat format) {
        return "s3_throw_on_zero_files_match = 1"
            + (all ? ", min_insert_block_size_rows = 100000, min_insert_block_size_bytes = 33554432" : "")
            + (format.insertSettings() == null ? "" : ", " + format.insertSettings());
    }
}
