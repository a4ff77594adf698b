package io.dpone.route;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.MetadataColumns;
import io.dpone.clickhouse.PartwiseTableStats;
import io.dpone.clickhouse.ReplacedGenerationMerges;
import io.dpone.clickhouse.TableAdmin;
import io.dpone.format.ChunkFormat;
import io.dpone.format.ChunkFormats;
import io.dpone.manifest.SinkSpec;
import io.dpone.quality.FidelityColumns;
import io.dpone.quality.SourceStatsCollector;
import io.dpone.source.SourceColumn;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * First step of a full refresh: connect, check the target databases are Atomic, recognise a resume of this run
 * id (target already holds this run's generation, or a leftover staging table of this run: see
 * {@link StagingResume}), describe the source, create the staging table (or keep the leftover, and skip the rows it
 * holds), and start the chunk producer. The source side ({@link SourceOpening}: connect, describe, open the cursors
 * and the first fetch) runs on its own thread while this one prepares the sink; every check here happens before
 * any source row is encoded, and no chunk is loaded before the staging table exists with its merges stopped.
 */
public final class PrepareStagingProcessor implements Processor {
    public static final String CHUNKS = "dponeChunks";
    /** Set by the route YAML: the chunk format name ({@code rowbinary}, {@code tsv}, {@code parquet}). */
    public static final String FORMAT = "dponeFormat";
    /** Set by the route YAML: {@code chunked} (default) or {@code single} (one file per table). */
    public static final String CHUNKING = "dponeChunking";

    @Override
    public void process(Exchange exchange) {
        TransferRun run = exchange.getIn().getBody(TransferRun.class);
        exchange.setProperty(RouteProperties.RUN, run);
        long t0 = System.nanoTime();
        SinkSpec sink = run.plan().manifest().sink();
        // The engine is opened first, alone: its first connect replaces the JVM's SIGSEGV handler until
        // SignalHandlerGuard restores it, and a Java thread running meanwhile (a safepoint poll, an implicit null
        // check) would kill the process. With the source opened at the same time, two of about a dozen runs died with
        // signal 11 and no hs_err file, as a missing JVM handler predicts.
        ClickHouseEndpoint clickhouse = run.openClickHouse();
        TableAdmin admin = new TableAdmin(clickhouse);
        admin.ensureAtomicDatabase(sink.table().schema(), "sink.table.schema");
        admin.ensureAtomicDatabase(sink.stagingSchema(), "sink.staging.schema");
        String stagingTable = run.claimStaging();
        RunPlan plan = run.plan();
        run.spoolDir(SpoolDirectory.fresh(plan.workDir(), plan.runKey())); // a resume after publish: the audit removes it

        if (admin.comment(sink.table().schema(), sink.table().name()).filter(plan.generationComment()::equals)
                .isPresent()) {
            // a previous attempt of this run id already published; only its cleanup can be outstanding
            run.markResumedAfterPublish();
            run.counters().addStep("prepare", t0);
            return;
        }
        // From here the source side (connect, describe, estimate, plan, open the cursors, first fetch) runs on its own
        // thread while this one prepares the sink. No chunk reaches the staging table before this step returns, and
        // it returns only after the staging table exists and its merges are stopped; a failure on either side fails
        // the step with that side's blocker, and the error policy then stops the readers and drops the staging table.
        ChunkFormat format = ChunkFormats.byName(exchange.getProperty(FORMAT, String.class));
        WorkerThreads workers = WorkerThreads.of(exchange.getContext());
        var quality = plan.manifest().quality();
        int chunkRows = chunkRows(exchange, format, run);
        SourceOpening opening = SourceOpening.start(run, format, (cursors, table) -> new ChunkProducer(cursors,
            table, format, run.spoolDir(), chunkRows, sink.maxSourceBytes(),
            new SourceStatsCollector(table, quality.hashSampleModulo(), quality.distinctColumns()),
            plan.progress()::rowsRead, workers), workers);
        try {
            run.replacedMerges(ReplacedGenerationMerges.pause(clickhouse, sink.table().schema(), sink.table().name())
                .orElse(null));
            opening.described();
            // our own leftover from an attempt that was killed or stopped: kept when it can be resumed from, else
            // dropped
            var kept = StagingResume.keepOrDrop(run, clickhouse, orderBy(run));
            kept.ifPresent(run::keptStaging);
            ChunkProducer producer = opening.reading();
            kept.ifPresent(k -> producer.skipStaged(k.staged()));
            ObjectStaging objects = run.resources().objectStaging();
            if (objects != null && "single".equals(exchange.getProperty(CHUNKING, String.class))) {
                // the whole table is one file: it goes up part by part while it is written, not after
                producer.streamChunks(file -> GrowingFileUpload.start(objects.store().store().startUpload(
                    objects.key(file.getFileName().toString())), file, GrowingFileUpload.PART_SIZE, workers));
            }
            // encoding the first chunk (spool files only) overlaps the staging DDL; the first load comes after this
            // step. If the DDL fails, the run's close cancels the producer.
            producer.start();
            if (kept.isEmpty()) {
                clickhouse.execute(createStagingSql(run));
            }
            run.stagingStats(PartwiseTableStats.start(clickhouse, sink.stagingSchema(), stagingTable,
                run.table().columns().stream().map(SourceColumn::name).toList(),
                FidelityColumns.all(run.table().columns()), plan.runId(), quality.hashSampleModulo(),
                quality.distinctColumns()));
            exchange.setProperty(CHUNKS, producer);
        } catch (RuntimeException | Error e) {
            opening.abandon(); // nothing the source side opens may outlive the run's close
            throw e;
        }
        run.counters().addStep("prepare", t0);
    }

    private static String createStagingSql(TransferRun run) {
        SinkSpec sink = run.plan().manifest().sink();
        List<String> orderBy = orderBy(run);
        return "CREATE TABLE " + ClickHouseSql.table(sink.stagingSchema(), run.stagingTable()) + " ("
            + run.table().columns().stream().map(c -> ClickHouseSql.id(c.name()) + " " + c.clickHouseType())
                .collect(Collectors.joining(", "))
            + ", " + MetadataColumns.ddl() + ") ENGINE = MergeTree ORDER BY "
            + (orderBy.isEmpty() ? "tuple()" : "(" + ClickHouseSql.idList(orderBy) + ")")
            + " COMMENT " + ClickHouseSql.literal(run.plan().generationComment());
    }

    /**
     * The staging (and so target) sort key: {@code sink.options.order_by} when given, each a selected non-nullable
     * column; otherwise the source primary key when all of it is selected and non-nullable; otherwise none.
     */
    /**
     * Rows per chunk: {@code single} (route property {@code dponeChunking}) puts the whole table in one file;
     * Parquet routes take {@code columnar_fast_path.chunk_rows} when set; otherwise {@code source.options.chunk_rows}.
     */
    private static int chunkRows(Exchange exchange, ChunkFormat format, TransferRun run) {
        if ("single".equals(exchange.getProperty(CHUNKING, String.class))) {
            return Integer.MAX_VALUE;
        }
        if ("Parquet".equals(format.clickHouseFormat())) {
            Integer columnar = io.dpone.manifest.ColumnarFastPath.of(run.plan().manifest().source().nativeTransfer())
                .map(io.dpone.manifest.ColumnarFastPath::chunkRows).orElse(null);
            if (columnar != null) {
                return columnar;
            }
        }
        return run.plan().manifest().source().chunkRows();
    }

    private static List<String> orderBy(TransferRun run) {
        List<String> wanted = run.plan().manifest().sink().options().orderBy();
        List<String> key = new ArrayList<>();
        if (wanted.isEmpty()) {
            for (String name : run.table().primaryKey()) {
                SourceColumn c = NamedColumns.column(run.table(), name);
                if (c == null || c.nullable()) {
                    return List.of();
                }
                key.add(c.name());
            }
            return key;
        }
        wanted.forEach(name -> key.add(NamedColumns.column(run.table(), name).name())); // NamedColumns checked them
        return key;
    }


}
