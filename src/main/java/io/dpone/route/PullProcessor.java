package io.dpone.route;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseOperations;
import io.dpone.clickhouse.ChunkLoads.ObjectPull;
import io.dpone.format.ChunkFormat;
import io.dpone.source.SourceColumn;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * ClickHouse pulls staged Parquet into the staging table with {@code s3(...)} / {@code s3Cluster(...)}, on the run's
 * pull thread ({@link ChunkPulls}). In the split ({@code rest: false}) it hands over the chunk just uploaded and
 * returns, so the route thread uploads the next chunk while ClickHouse pulls this one; after the split
 * ({@code rest: true}) it waits until every uploaded chunk is pulled. Route property {@value #PULL}:
 * {@code each_chunk} pulls each chunk by its key; {@code grouped} pulls every chunk uploaded since the previous pull
 * in one statement over a glob of their names under the run prefix. {@code s3_throw_on_zero_files_match=1}: a glob
 * that matches nothing fails instead of loading zero rows.
 */
public final class PullProcessor implements Processor {
    /** Set by the route YAML: {@code each_chunk} or {@code grouped}. */
    public static final String PULL = "dponePull";
    private static final String PARQUET_WATERMARK = "input_format_parquet_memory_high_watermark";

    private final boolean rest;

    public PullProcessor(boolean rest) {
        this.rest = rest;
    }

    @Override
    public void process(Exchange exchange) {
        TransferRun run = exchange.getProperty(RouteProperties.RUN, TransferRun.class);
        if (rest) {
            ChunkPulls pulls = run.resources().pulls();
            if (pulls != null) {
                pulls.finish();
            }
            return;
        }
        boolean grouped = "grouped".equals(exchange.getProperty(PULL, "each_chunk", String.class));
        // one statement over many rows: the grouped pulls, and the single-file route's whole-table file
        boolean large = grouped || "single".equals(exchange.getProperty(RouteProperties.CHUNKING,
            String.class));
        ChunkPulls pulls = run.resources().pulls(() -> new ChunkPulls(grouped, batch -> pull(run, batch, large),
            WorkerThreads.of(exchange.getContext())));
        pulls.submit(exchange.getIn().getBody(Chunk.class), exchange.getProperty(UploadChunkProcessor.KEY,
            String.class));
    }

    /** One statement pulling {@code batch} (one chunk by its key, or several over a glob of their names). */
    static void pull(TransferRun run, List<ChunkPulls.Uploaded> batch, boolean large) {
        long t0 = System.nanoTime();
        String key = batch.size() == 1 ? batch.get(0).key() : glob(run.resources().objectStaging(),
            run.format().extension(), batch.stream().map(u -> u.chunk().file().getFileName().toString()).toList());
        Map<String, String> settings = settings(large, run.format());
        settings.putAll(run.pullReadSettings(() -> readSettings(run.clickhouse())));
        run.clickhouse().operations().pull(new ObjectPull(run.plan().manifest().sink().stagingSchema(),
            run.stagingTable(), run.table().columns().stream().map(SourceColumn::name).toList(),
            run.table().columns().stream().map(run.format()::readExpression).toList(), run.loadStamp(),
            run.resources().objectStaging().read(key, run.format().clickHouseFormat(),
                run.format().structure(run.table().columns())), settings));
        run.counters().rowsPulled(batch.stream().mapToLong(u -> u.chunk().rows()).sum());
        run.counters().addStep("clickhouse_pull", t0);
        run.countLoadedChunk();
    }

    /**
     * The glob of a batch's object names under the run prefix, {@code chunk-{000003,000004}.parquet}: s3() lists the
     * prefix and reads the objects whose names match, which must be exactly these (each an uploaded chunk).
     */
    static String glob(ObjectStaging staging, String extension, List<String> fileNames) {
        String ext = "." + extension;
        StringBuilder names = new StringBuilder();
        for (String name : fileNames) {
            if (!name.matches("chunk-[0-9]+" + java.util.regex.Pattern.quote(ext))) {
                throw new IllegalStateException("not a chunk file name: " + name);
            }
            names.append(names.length() == 0 ? "" : ",").append(name, 6, name.length() - ext.length());
        }
        return staging.key("chunk-{" + names + "}" + ext);
    }

    /**
     * {@code input_format_parquet_memory_high_watermark = 128 MiB} where the server knows it (the Parquet reader's
     * prefetch budget, 4 GiB by default): {@code object_storage_pull.file} reads one whole-table file, and with the
     * default its peak RSS at 5M rows was 2,249 MiB, with 128 MiB 1,843 MiB (one run each, bench/README.md). Servers
     * older than the setting keep their default (the setting would fail the statement there).
     */
    static Map<String, String> readSettings(ClickHouseEndpoint ch) {
        return ch.operations().changeableSettings(List.of(PARQUET_WATERMARK)).contains(PARQUET_WATERMARK)
            ? Map.of(PARQUET_WATERMARK, String.valueOf(128L << 20)) : Map.of();
    }

    /**
     * {@code s3_throw_on_zero_files_match = 1} always. A statement over many rows (a grouped pull, the single-file
     * route's whole table) also squashes rows into insert blocks of 100k rows / 32 MiB instead of the defaults (about
     * 1M rows / 256 MiB): measured on chDB (bench/README.md), a 1M-row Parquet pull took 1.35 s and 759 MiB instead
     * of 2.61 s and 846 MiB, 5M rows 4.62 s and 1,414 MiB instead of 5.58 s and 1,982 MiB. A per-chunk pull is one
     * chunk, so it keeps the defaults.
     */
    static Map<String, String> settings(boolean all, ChunkFormat format) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("s3_throw_on_zero_files_match", "1");
        // insert_deduplicate = 0: the staging table keeps a deduplication window for the retried chunk inserts'
        // tokens (StagingDdl); a pull has no token, and two pulled blocks that happen to be equal must both land
        settings.put("insert_deduplicate", "0");
        if (all) {
            settings.put("min_insert_block_size_rows", "100000");
            settings.put("min_insert_block_size_bytes", "33554432");
        }
        settings.putAll(ClickHouseOperations.settings(format.insertSettings()));
        return settings;
    }
}
