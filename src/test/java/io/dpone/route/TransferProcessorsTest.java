package io.dpone.route;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseOperations;
import io.dpone.clickhouse.FakeClickHouseEndpoint;
import io.dpone.clickhouse.MetadataColumns;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.connect.Secret;
import io.dpone.error.DponeException;
import io.dpone.format.ParquetFormat;
import io.dpone.format.RowBinaryFormat;
import io.dpone.manifest.ColumnarFastPath;
import io.dpone.manifest.ManifestLoader;
import io.dpone.manifest.TableRef;
import io.dpone.quality.GateResult;
import io.dpone.quality.SourceStats;
import io.dpone.source.InMemorySourceReader;
import io.dpone.source.RowCursor;
import io.dpone.source.SourceColumn;
import io.dpone.source.SourceReader;
import io.dpone.source.SourceTable;
import io.dpone.source.types.IntegerType;
import io.dpone.source.types.StringType;
import io.dpone.storage.InMemoryObjectStore;
import io.dpone.storage.RunPrefix;
import io.dpone.storage.StagingStore;
import io.dpone.testing.Manifests;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.camel.Exchange;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The transfer route's steps one at a time, against in-memory fakes of the endpoint ({@link FakeClickHouseEndpoint}),
 * the object store ({@link InMemoryObjectStore}) and the run's connectors: what each step sends, in which order, what
 * it counts, and what it leaves behind. The engine tests run the same steps on the real stack.
 */
class TransferProcessorsTest {
    private static final String DB = "analytics";
    private static final SourceTable TABLE = new SourceTable(new TableRef("dbo", "orders"),
        List.of(new SourceColumn("id", "int", false, new IntegerType(32, false)),
            new SourceColumn("status", "nvarchar", true, new StringType())), List.of("id"));

    @TempDir
    Path dir;
    FakeClickHouseEndpoint ch;
    InMemoryObjectStore objects;
    InMemorySourceReader source;
    /** When set, the run's source (instead of {@link #source}). */
    SourceReader sourceOverride;
    TransferRun run;

    @BeforeEach
    void setUp() {
        // without SYSTEM MERGES the staging stats are read at the gate, which the engine tests cover (no row data here)
        ch = new FakeClickHouseEndpoint().database(DB).withoutMergeControl();
        objects = new InMemoryObjectStore();
        source = new InMemorySourceReader(TABLE, 1_500, i -> new Object[] {(long) i, i % 4 == 0 ? null : "s" + i});
        RunConnectors fakes = new RunConnectors() {
            @Override
            public ClickHouseEndpoint clickhouse(ConnectionSpec spec) {
                return ch;
            }

            @Override
            public SourceReader source(ConnectionSpec spec) {
                return sourceOverride != null ? sourceOverride : source;
            }

            @Override
            public StagingStore stagingStore(ConnectionSpec spec, String bucket) {
                return StagingStore.of(objects, bucket, "http://objects.test", Secret.of("ak"), Secret.of("sk"));
            }
        };
        ConnectionContext context = ConnectionContext.of(Map.of(
            "mssql_test", new ContextEntry("mssql_test", ConnectionType.MSSQL, "jdbc:h2:mem:x", "sa", null, null,
                false, Map.of()),
            "clickhouse_test", new ContextEntry("clickhouse_test", ConnectionType.CLICKHOUSE, null, null, null, null,
                true, Map.of())), false);
        run = new TransferRun(RunPlan.of(ManifestLoader.load(Manifests.fullRefresh(dir, "orders", DB, null)), "run-1",
            context, dir.resolve("state"), ProgressListener.NONE, "typed_binary_streaming", 0, fakes));
        run.openClickHouse();
    }

    private Exchange exchange(Object body) {
        Exchange e = new DefaultExchange(new DefaultCamelContext());
        e.setProperty(RouteProperties.RUN, run);
        e.getIn().setBody(body);
        return e;
    }

    private Path chunk(String name, byte[] bytes) throws Exception {
        Files.createDirectories(dir.resolve("spool"));
        return Files.write(dir.resolve("spool").resolve(name), bytes);
    }

    private String staging() {
        return "__dpone_stg__orders__" + run.plan().runKey();
    }

    private ObjectStaging objectStaging() {
        ColumnarFastPath cfg = new ColumnarFastPath("enabled", "s3", null, "s3://stage-bucket/dpone/{run_id}/",
            "s3_stage", "named_collection", "dpone_stage", true, true);
        ObjectStaging staging = new ObjectStaging(run.plan().connectors().stagingStore(null, "stage-bucket"),
            RunPrefix.of(cfg.uriPrefix(), "run-1"), cfg, "s3", null);
        run.resources().objectStaging(staging);
        return staging;
    }

    @Test
    void prepareCreatesThisRunsStagingTableAndStreamsTheSourceInChunksOfTheManifestsSize() {
        Exchange e = exchange(run);
        e.setProperty(RouteProperties.FORMAT, "rowbinary");
        PrepareSteps.run(e);

        ClickHouseOperations.TableSpec create = ch.created().get(0);
        assertEquals(List.of(DB, staging(), "MergeTree"), List.of(create.database(), create.name(), create.engine()));
        java.util.List<ClickHouseOperations.Column> columns = new java.util.ArrayList<>(List.of(
            new ClickHouseOperations.Column("id", "Int32"), new ClickHouseOperations.Column("status", "Nullable(String)")));
        columns.addAll(MetadataColumns.columns());
        assertEquals(columns, create.columns());
        assertEquals(List.of("id"), create.orderBy());
        assertEquals(Map.of("non_replicated_deduplication_window", "1000"), create.settings());
        assertEquals(run.plan().generationComment(), create.comment());
        assertEquals(staging(), run.stagingTable());
        List<Long> chunkRows = new java.util.ArrayList<>();
        @SuppressWarnings("unchecked")
        java.util.Iterator<Chunk> chunks = e.getProperty(RouteProperties.CHUNKS, java.util.Iterator.class);
        chunks.forEachRemaining(c -> {
            assertTrue(Files.exists(c.file()) && c.file().startsWith(run.spoolDir()), c.toString());
            chunkRows.add(c.rows());
        });
        assertEquals(List.of(700L, 700L, 100L), chunkRows, "source.options.chunk_rows: 700");
        SourceStats stats = run.resources().producer().stats();
        assertEquals(1_500, stats.rows());
        assertEquals(375L, stats.nullCounts().get("status"));
        assertEquals(1, source.opened());
        run.resources().close();
        assertTrue(source.closed() && ch.closed(), "the run's owner closes what the steps opened");
    }

    @Test
    void everyColumnTheManifestNamesIsCheckedBeforeAnythingIsWritten() throws Exception {
        Path m = Manifests.fullRefresh(dir.resolve("named"), "orders", DB, "order_by: [ghost, status]");
        Files.writeString(m, Files.readString(m) + "quality:\n  distinct_columns: [status, nope_col]\n");
        TransferRun named = new TransferRun(RunPlan.of(ManifestLoader.load(m), "run-2", run.plan().context(),
            dir.resolve("state"), ProgressListener.NONE, "typed_binary_streaming", 0, run.plan().connectors()));
        Exchange e = exchange(named);
        e.setProperty(RouteProperties.RUN, named);
        e.setProperty(RouteProperties.FORMAT, "rowbinary");
        DponeException refused = assertThrows(DponeException.class, () -> PrepareSteps.run(e));
        assertEquals(List.of("manifest.invalid_value@quality.distinct_columns[1]",
            "manifest.invalid_value@sink.options.order_by[0]", "manifest.invalid_value@sink.options.order_by[1]"),
            refused.blockers().stream().map(b -> b.code() + "@" + b.subject()).toList(),
            "an unknown column and a nullable one, all at once");
        assertFalse(ch.ran("createTable"), "no staging table");
        assertEquals(0, source.opened(), "no source row read");
        named.resources().close();
    }

    @Test
    void prepareRecognisesARunThatAlreadyPublishedAndReadsNoSource() {
        ch.table(DB, "orders", run.plan().generationComment());
        PrepareSteps.run(exchange(run));
        assertTrue(run.resumedAfterPublish() && run.published());
        assertEquals(0, source.opened(), "no source row is read again");
        assertFalse(ch.ran("createTable"), ch.log().toString());
    }

    /**
     * {@link #source} with hooks on its cursor: {@code onFirstRow} runs before the first row is read,
     * {@code closed} counts down when the cursor is closed; {@code openFails}, when set, is thrown by open.
     */
    private SourceReader hooked(Runnable onFirstRow, CountDownLatch closed, RuntimeException openFails) {
        return new SourceReader() {
            @Override
            public SourceTable describe(TableRef table, List<String> columns) {
                return source.describe(table, columns);
            }

            @Override
            public RowCursor open(SourceTable table, int fetchSize, long rowLimit) {
                if (openFails != null) {
                    throw openFails;
                }
                RowCursor cursor = source.open(table, fetchSize, rowLimit);
                return new RowCursor() {
                    boolean first = true;

                    @Override
                    public boolean next(Object[] row) {
                        if (first) {
                            first = false;
                            onFirstRow.run();
                        }
                        return cursor.next(row);
                    }

                    @Override
                    public void close() {
                        cursor.close();
                        closed.countDown();
                    }
                };
            }

            @Override
            public void close() {
                source.close();
            }
        };
    }

    private static void await(CountDownLatch latch, String what) {
        try {
            assertTrue(latch.await(60, TimeUnit.SECONDS), what); // a bound against a hang, not a timing
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void theFirstFetchOverlapsTheStagingDdlAndNoChunkIsLoadedBeforeTheTableAndItsMergeStop() {
        CountDownLatch fetching = new CountDownLatch(1);
        sourceOverride = hooked(fetching::countDown, new CountDownLatch(1), null);
        List<String> events = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        ch.beforeEach(op -> {
            if (op.startsWith("createTable ")) {
                // a slow DDL: it ends only once the source is being read and the first chunk is complete
                await(fetching, "the first fetch started while the staging DDL ran");
                while (run.resources().producer().rowsRead() < 1_000) {
                    Thread.onSpinWait();
                }
            }
            events.add(op.split(" ")[0]);
        });
        Exchange e = exchange(run);
        e.setProperty(RouteProperties.FORMAT, "rowbinary");
        PrepareSteps.run(e);
        @SuppressWarnings("unchecked")
        java.util.Iterator<Chunk> chunks = e.getProperty(RouteProperties.CHUNKS, java.util.Iterator.class);
        chunks.forEachRemaining(c -> new LoadChunkProcessor().process(exchange(c)));

        int create = events.indexOf("createTable");
        int stop = events.indexOf("stopMerges");
        int firstInsert = events.indexOf("insertChunk");
        assertTrue(create >= 0 && create < stop && stop < firstInsert, events.toString());
        assertEquals(3, ch.inserts().size());
        assertEquals(1_500, run.counters().rows());
    }

    @Test
    void aDdlThatFailsWhileTheSourceIsReadFailsTypedAndClosesTheCursor() {
        CountDownLatch fetching = new CountDownLatch(1);
        CountDownLatch cursorClosed = new CountDownLatch(1);
        sourceOverride = hooked(fetching::countDown, cursorClosed, null);
        ch.beforeEach(op -> {
            if (op.startsWith("createTable ")) {
                await(fetching, "the source is being read while the DDL runs");
                throw new io.dpone.clickhouse.ClickHouseQueryException("Code: 241. MEMORY_LIMIT_EXCEEDED");
            }
        });
        Exchange e = exchange(run);
        e.setProperty(RouteProperties.FORMAT, "rowbinary");
        RuntimeException failed = assertThrows(RuntimeException.class, () -> PrepareSteps.run(e));
        assertEquals("sink.load_failed", FullRefreshRunner.blockersOf(failed).get(0).code());
        new FailedRunProcessor().process(e); // the error policy
        await(cursorClosed, "the error policy closed the source cursor");
        assertFalse(ch.exists(DB, staging()));
        run.resources().close();
        assertTrue(source.closed(), "the runner closes the connection");
    }

    @Test
    void aSourceThatFailsWhileTheDdlRunsFailsTypedAndTheStagingTableIsDropped() {
        CountDownLatch created = new CountDownLatch(1);
        sourceOverride = hooked(() -> {
            await(created, "the staging table is being created");
            throw new DponeException(io.dpone.error.BlockerCode.SOURCE_READ_FAILED, "source.table",
                "source read failed (SQLState 08S01)");
        }, new CountDownLatch(1), null);
        ch.beforeEach(op -> {
            if (op.startsWith("stopMerges ")) { // the CREATE has taken effect
                created.countDown();
            }
        });
        Exchange e = exchange(run);
        e.setProperty(RouteProperties.FORMAT, "rowbinary");
        PrepareSteps.run(e);
        assertTrue(ch.exists(DB, staging()));
        @SuppressWarnings("unchecked")
        java.util.Iterator<Chunk> chunks = e.getProperty(RouteProperties.CHUNKS, java.util.Iterator.class);
        DponeException failed = assertThrows(DponeException.class,
            () -> chunks.forEachRemaining(c -> new LoadChunkProcessor().process(exchange(c))));
        assertEquals("source.read_failed", failed.blockers().get(0).code());
        assertEquals(0, ch.inserts().size());
        new FailedRunProcessor().process(e);
        assertFalse(ch.exists(DB, staging()), "the error policy drops the staging table");
        run.resources().close();
    }

    @Test
    void aSourceThatCannotOpenItsCursorFailsTheStepTypedBeforeAnyStagingTable() {
        sourceOverride = hooked(() -> { }, new CountDownLatch(1), new DponeException(
            io.dpone.error.BlockerCode.SOURCE_READ_FAILED, "source.table", "cannot read source table"));
        Exchange e = exchange(run);
        e.setProperty(RouteProperties.FORMAT, "rowbinary");
        DponeException failed = assertThrows(DponeException.class, () -> PrepareSteps.run(e));
        assertEquals("source.read_failed", failed.blockers().get(0).code());
        assertFalse(ch.ran("createTable"), ch.log().toString());
        assertFalse(run.resources().hasProducer());
        run.resources().close();
        assertTrue(source.closed(), "the connection the source side opened closes with the run");
    }

    @Test
    void loadChunkInsertsTheChunkIntoThisRunsStagingTableThenDeletesItAndCountsIt() throws Exception {
        run.claimStaging();
        run.described(TABLE, new RowBinaryFormat(), Instant.parse("2026-01-01T00:00:00Z"));
        ch.table(DB, staging(), run.plan().generationComment());
        Path file = chunk("chunk-000000.bin", new byte[] {1, 2, 3, 4, 5});
        new LoadChunkProcessor().process(exchange(new Chunk(0, file, 3, 5)));

        assertEquals(1, ch.inserts().size());
        ClickHouseOperations.ChunkInsert insert = ch.inserts().get(0);
        assertEquals(List.of(DB, staging()), List.of(insert.database(), insert.table()));
        assertEquals(List.of("id", "status"), insert.columns());
        assertEquals(List.of("`id`", "`status`"), insert.selects());
        assertEquals(List.of("run-1", run.plan().loadId()), List.of(insert.stamp().runId(), insert.stamp().loadId()));
        assertEquals(run.plan().loadId() + ":0", insert.deduplicationToken(), "one token per load and chunk");
        assertEquals("RowBinary", insert.format());
        assertEquals(file, insert.file());
        assertFalse(Files.exists(file), "the chunk file is deleted once loaded");
        assertEquals(List.of(3L, 5L, 1L), List.of(run.counters().rows(), run.counters().bytes(),
            (long) run.counters().chunks()));
        assertTrue(run.counters().stepMillis().containsKey("clickhouse_load"));
    }

    @Test
    void uploadPutsTheChunkUnderTheRunPrefixAndThePullReadsExactlyThatObject() throws Exception {
        run.claimStaging();
        run.described(TABLE, new ParquetFormat(), Instant.parse("2026-01-01T00:00:00Z"));
        ch.table(DB, staging(), run.plan().generationComment());
        ObjectStaging staging = objectStaging();
        byte[] bytes = {9, 8, 7};
        Path file = chunk("chunk-000000.parquet", bytes);
        Exchange e = exchange(new Chunk(0, file, 2, 3));
        new UploadChunkProcessor().process(e);
        new PullProcessor(false).process(e); // hands the chunk to the pull thread
        new PullProcessor(true).process(e); // waits for its pull

        String key = staging.key("chunk-000000.parquet");
        assertEquals(List.of(key), objects.list(staging.prefix().keyPrefix()));
        try (InputStream in = objects.get(key)) {
            assertArrayEquals(bytes, in.readAllBytes());
        }
        assertFalse(Files.exists(file), "the local chunk is deleted once uploaded");
        ClickHouseOperations.ObjectPull pull = ch.pulls().get(ch.pulls().size() - 1);
        assertEquals(List.of(DB, staging()), List.of(pull.database(), pull.table()));
        assertEquals(List.of("id", "status"), pull.columns());
        assertEquals(new ClickHouseOperations.ObjectRead("s3", null, "http://objects.test/stage-bucket/" + key,
            "dpone_stage", null, null, "Parquet", new ParquetFormat().structure(TABLE.columns())), pull.read(),
            "no key in the read: the collection holds it");
        assertEquals(Map.of("s3_throw_on_zero_files_match", "1", "insert_deduplicate", "0"), pull.settings());
        assertEquals(List.of(2L, 3L, 1L), List.of(run.counters().rows(), run.counters().bytes(),
            (long) run.counters().chunks()));
    }

    @Test
    void publishRecordsTheEvidenceBeforeTheSwapAndExchangesAnExistingTarget() throws Exception {
        run.claimStaging();
        ch.table(DB, "orders", "dpone:run=older").table(DB, staging(), run.plan().generationComment());
        run.sourceStats(new SourceStats(3, Map.of(), 0, 3, 10, Map.of(), Map.of()));
        run.addGate(GateResult.passed("row_count", Map.of("source", 3, "target", 3)));
        gatesPassed(run, "row_count");
        Path journal = RunJournal.path(run);
        ch.beforeEach(op -> {
            if (op.startsWith("exchange ")) {
                assertTrue(Files.exists(journal), "the run journal is durable before the swap");
            }
        });
        new PublishProcessor().process(exchange(run));

        assertEquals(run.plan().generationComment(), ch.comment(DB, "orders"));
        assertEquals("dpone:run=older", ch.comment(DB, staging()), "the predecessor waits under the staging name");
        assertTrue(run.published());
        assertEquals(GateEvidence.REQUIRED, RunJournal.load(run).gates().stream().map(GateResult::gate).toList());
    }

    @Test
    void aSwapWhoseAnswerWasLostIsReconciledByTheTargetsGenerationAndTheRunGoesOnPublished() throws Exception {
        // issue 35: EXCHANGE is never retried; a reset after the server ran it is recognised by reading state
        for (boolean firstLoad : List.of(false, true)) {
            setUp();
            run.claimStaging();
            if (!firstLoad) {
                ch.table(DB, "orders", "dpone:run=older");
            }
            ch.table(DB, staging(), run.plan().generationComment());
            run.sourceStats(new SourceStats(0, Map.of(), 0, 0, 0, Map.of(), Map.of()));
            gatesPassed(run);
            ch.afterSwap(op -> {
                throw new io.dpone.retry.TransientFailure(io.dpone.error.BlockerCode.CONNECTION_FAILED, "sink",
                    "the answer of " + op + " was lost");
            });
            new PublishProcessor().process(exchange(run));
            assertTrue(run.published(), "first load " + firstLoad);
            assertEquals(run.plan().generationComment(), ch.comment(DB, "orders"));
            assertTrue(ch.ran(firstLoad ? "rename" : "exchange"), ch.log().toString());
        }
    }

    @Test
    void aSwapLostBeforeItRanOrRefusedByTheServerFailsTheRunUnpublished() throws Exception {
        for (RuntimeException failure : List.<RuntimeException>of(
                new io.dpone.retry.TransientFailure(io.dpone.error.BlockerCode.CONNECTION_FAILED, "sink", "reset"),
                new io.dpone.clickhouse.ClickHouseQueryException("Code: 60. DB::Exception: UNKNOWN_TABLE"))) {
            setUp();
            run.claimStaging();
            ch.table(DB, "orders", "dpone:run=older").table(DB, staging(), run.plan().generationComment());
            run.sourceStats(new SourceStats(0, Map.of(), 0, 0, 0, Map.of(), Map.of()));
            gatesPassed(run);
            ch.beforeEach(op -> {
                if (op.startsWith("exchange ")) {
                    throw failure;
                }
            });
            RuntimeException thrown = org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class,
                () -> new PublishProcessor().process(exchange(run)));
            assertEquals(failure, thrown, "the swap's own failure, not a reconciliation's");
            assertFalse(run.published());
            assertEquals("dpone:run=older", ch.comment(DB, "orders"), "the target is untouched");
        }
    }

    /** Every required gate passed, but {@code already} (added by the test itself). */
    private static void gatesPassed(TransferRun run, String... already) {
        GateEvidence.REQUIRED.stream().filter(g -> !List.of(already).contains(g))
            .forEach(g -> run.addGate(GateResult.passed(g, Map.of())));
    }

    @Test
    void publishRefusesARunWhoseGatesDidNotAllRunOrPassAndTouchesNothing() throws Exception {
        // issue 37: whatever the route says, no evidence, no publication: no journal, no swap
        run.claimStaging();
        ch.table(DB, "orders", "dpone:run=older").table(DB, staging(), run.plan().generationComment());
        run.sourceStats(new SourceStats(3, Map.of(), 0, 3, 10, Map.of(), Map.of()));
        run.addGate(GateResult.passed("row_count", Map.of()));
        io.dpone.error.DponeException missing = org.junit.jupiter.api.Assertions.assertThrows(
            io.dpone.error.DponeException.class, () -> new PublishProcessor().process(exchange(run)));
        assertEquals("run.gates_missing", missing.blockers().get(0).code());
        assertEquals(GateEvidence.REQUIRED.subList(1, GateEvidence.REQUIRED.size()),
            missing.blockers().get(0).details().get("missing_gates"));
        gatesPassed(run, "row_count", "typed_hash");
        io.dpone.error.Blocker mismatch = io.dpone.error.Blocker.of(io.dpone.error.BlockerCode.QUALITY_TYPED_HASH_MISMATCH,
            "typed_hash", "differs");
        run.addGate(GateResult.failed("typed_hash", Map.of(), mismatch));
        io.dpone.error.DponeException failed = org.junit.jupiter.api.Assertions.assertThrows(
            io.dpone.error.DponeException.class, () -> new PublishProcessor().process(exchange(run)));
        assertEquals(List.of("quality.typed_hash_mismatch"), failed.blockers().stream().map(b -> b.code()).toList());
        assertFalse(Files.exists(RunJournal.path(run)), "no evidence journal for a refused run");
        assertFalse(ch.ran("exchange") || ch.ran("rename"), ch.log().toString());
        assertEquals("dpone:run=older", ch.comment(DB, "orders"), "the target is untouched");
        assertFalse(run.published());
    }

    @Test
    void publishRemovesTheTemporaryJournalAnEarlierAttemptLeftBehind() throws Exception {
        run.claimStaging();
        ch.table(DB, staging(), run.plan().generationComment());
        run.sourceStats(new SourceStats(0, Map.of(), 0, 0, 0, Map.of(), Map.of()));
        gatesPassed(run);
        Path journal = RunJournal.path(run);
        Files.createDirectories(journal.getParent());
        Path stale = Files.writeString(journal.resolveSibling("." + journal.getFileName() + "4711.tmp"), "{\"ha");
        Path other = Files.writeString(journal.resolveSibling(".someotherrun.json4711.tmp"), "{");
        new PublishProcessor().process(exchange(run));
        assertFalse(Files.exists(stale), "a crash between write and rename left it; the next attempt removes it");
        assertTrue(Files.exists(other), "another run's file is not ours");
        assertTrue(Files.exists(journal));
    }

    @Test
    void aFirstPublicationRenamesTheStagingTableIntoPlace() {
        run.claimStaging();
        ch.table(DB, staging(), run.plan().generationComment());
        run.sourceStats(new SourceStats(0, Map.of(), 0, 0, 0, Map.of(), Map.of()));
        gatesPassed(run);
        new PublishProcessor().process(exchange(run));
        assertTrue(ch.ran("rename"), ch.log().toString());
        assertFalse(ch.exists(DB, staging()));
        assertEquals(run.plan().generationComment(), ch.comment(DB, "orders"));
    }

    @Test
    void aFailedRunRemovesOnlyWhatItOwnsAndNeverTouchesTheTarget() throws Exception {
        run.claimStaging();
        ch.table(DB, "orders", "dpone:run=older").table(DB, staging(), run.plan().generationComment())
            .table(DB, "__dpone_stg__orders__otherrun", "dpone:run=otherrun");
        ObjectStaging staging = objectStaging();
        Path one = chunk("one", new byte[] {1});
        objects.put(staging.key("chunk-000000.parquet"), one);
        objects.put("dpone/run-2/chunk-000000.parquet", one);
        Path spool = Files.createDirectories(dir.resolve("state/spool").resolve(run.plan().runKey()));
        run.spoolDir(spool);
        Files.write(spool.resolve("chunk-000001.parquet"), new byte[] {1});

        new FailedRunProcessor().process(exchange(run));

        assertFalse(Files.exists(spool));
        assertEquals(List.of("dpone/run-2/chunk-000000.parquet"), objects.list(""));
        assertFalse(ch.exists(DB, staging()), "the run's own unpublished staging table is dropped");
        assertEquals("dpone:run=older", ch.comment(DB, "orders"), "the target is untouched");
        assertTrue(ch.exists(DB, "__dpone_stg__orders__otherrun"), "another run's staging table is not ours");
    }

    @Test
    void aFailureAfterThePublicationKeepsThePredecessorForTheResume() {
        run.claimStaging();
        ch.table(DB, "orders", run.plan().generationComment()).table(DB, staging(), "dpone:run=older");
        run.markPublished();
        new FailedRunProcessor().process(exchange(run));
        assertEquals("dpone:run=older", ch.comment(DB, staging()), "only the resume drops the predecessor");
    }

    @Test
    void theCleanupAuditFailsOnAnythingTheRunLeftAndPassesWhenNothingIsLeft() throws Exception {
        run.claimStaging();
        ch.table(DB, staging(), "dpone:run=older");
        ObjectStaging staging = objectStaging();
        objects.put(staging.key("chunk-000000.parquet"), chunk("one", new byte[] {1}));
        DponeException e = assertThrows(DponeException.class,
            () -> new CleanupAuditProcessor().process(exchange(run)));
        assertEquals("quality.stale_artifacts", e.blockers().get(0).code());
        GateResult failed = run.gates().get(0);
        assertEquals(Map.of("own_staging_tables_left", 1, "spooled_chunks_left", 0L, "staged_objects_left", 1L,
            "journal_temps_left", 0L, "other_runs_staging_tables", 1), failed.details());

        new DropPredecessorProcessor().process(exchange(run));
        new DeleteStagedObjectsProcessor().process(exchange(run));
        new CleanupAuditProcessor().process(exchange(run));
        assertEquals("passed", run.gates().get(1).status());
        assertEquals(List.of(), objects.list(""));
    }
}
