package io.dpone.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.connect.Secret;
import io.dpone.format.ByteBuf;
import io.dpone.format.ChunkFormats;
import io.dpone.format.ChunkWriter;
import io.dpone.manifest.ColumnarFastPath;
import io.dpone.source.SourceColumn;
import io.dpone.source.types.IntegerType;
import io.dpone.storage.EmbeddedS3;
import io.dpone.storage.RunPrefix;
import io.dpone.storage.StagingStore;
import io.dpone.testing.TestEngines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pull thread of the object-storage routes: grouped pulls take every chunk uploaded while the previous pull ran,
 * per-chunk pulls take one chunk at a time in upload order, a failed pull fails the route thread, and the glob a
 * grouped pull reads matches exactly its chunks (on the embedded engine reading the embedded store).
 */
@io.dpone.testing.EngineTest
class ChunkPullsTest {
    @TempDir
    Path dir;

    private static Chunk chunk(int index) {
        return new Chunk(index, Path.of(String.format("chunk-%06d.parquet", index)), 10, 100);
    }

    /** Pulls recorded batch by batch; the first pull waits until {@code release} so the next chunks queue up. */
    private static final class Recorder implements ChunkPulls.Puller {
        final List<List<Integer>> batches = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch firstStarted = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public void pull(List<ChunkPulls.Uploaded> batch) {
            batches.add(batch.stream().map(u -> u.chunk().index()).toList());
            firstStarted.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private List<List<Integer>> pullFour(boolean grouped) throws Exception {
        Recorder recorder = new Recorder();
        try (ChunkPulls pulls = new ChunkPulls(grouped, 1, 4, recorder, WorkerThreads.standalone())) {
            pulls.submit(chunk(0), "k0");
            recorder.firstStarted.await(30, TimeUnit.SECONDS);
            pulls.submit(chunk(1), "k1");
            pulls.submit(chunk(2), "k2");
            pulls.submit(chunk(3), "k3");
            recorder.release.countDown();
            pulls.finish();
        }
        return recorder.batches;
    }

    @Test
    void groupedPullsTakeEveryChunkUploadedWhileThePreviousPullRan() throws Exception {
        assertEquals(List.of(List.of(0), List.of(1, 2, 3)), pullFour(true));
    }

    @Test
    void aGroupedPullWaitsForItsRowsOrTheBoundOrTheLastChunk() throws Exception {
        Recorder byRows = new Recorder();
        try (ChunkPulls pulls = new ChunkPulls(true, 25, 16, byRows, WorkerThreads.standalone())) {
            pulls.submit(chunk(0), "k0"); // 10 rows each: 30 rows are the first group
            pulls.submit(chunk(1), "k1");
            pulls.submit(chunk(2), "k2");
            byRows.firstStarted.await(30, TimeUnit.SECONDS);
            pulls.submit(chunk(3), "k3");
            byRows.release.countDown();
            pulls.finish(); // the last chunk is in: the rest goes, whatever its rows
        }
        assertEquals(List.of(List.of(0, 1, 2), List.of(3)), byRows.batches);

        Recorder byBound = new Recorder();
        try (ChunkPulls pulls = new ChunkPulls(true, 1_000_000, 3, byBound, WorkerThreads.standalone())) {
            pulls.submit(chunk(0), "k0");
            pulls.submit(chunk(1), "k1");
            pulls.submit(chunk(2), "k2"); // the bound: they go although they hold 30 rows only
            byBound.firstStarted.await(30, TimeUnit.SECONDS);
            byBound.release.countDown();
            pulls.submit(chunk(3), "k3");
            pulls.finish();
        }
        assertEquals(List.of(List.of(0, 1, 2), List.of(3)), byBound.batches);
    }

    @Test
    void perChunkPullsTakeOneChunkAtATimeInUploadOrder() throws Exception {
        assertEquals(List.of(List.of(0), List.of(1), List.of(2), List.of(3)), pullFour(false));
    }

    @Test
    void aFailedPullFailsTheRouteThreadWithItsException() {
        IllegalStateException boom = new IllegalStateException("the server refused the pull");
        try (ChunkPulls pulls = new ChunkPulls(true, batch -> {
            throw boom;
        }, WorkerThreads.standalone())) {
            pulls.submit(chunk(0), "k0");
            RuntimeException thrown = assertThrows(RuntimeException.class, () -> {
                for (int i = 1; i < 100; i++) { // fails at the latest when the bound is reached
                    pulls.submit(chunk(i), "k" + i);
                }
                pulls.finish();
            });
            assertSame(boom, thrown);
        }
    }

    @Test
    void finishingWithoutAnyChunkPullsNothing() {
        Recorder recorder = new Recorder();
        try (ChunkPulls pulls = new ChunkPulls(true, recorder, WorkerThreads.standalone())) {
            pulls.finish();
        }
        assertEquals(List.of(), recorder.batches);
    }

    @Test
    void theGlobOfAGroupedPullReadsExactlyItsChunks() throws Exception {
        List<SourceColumn> columns = List.of(new SourceColumn("n", "bigint", false, new IntegerType(64, false)));
        try (EmbeddedS3 s3 = EmbeddedS3.inMemory(); ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            s3.createBucket("stage");
            StagingStore store = StagingStore.of(s3.store("stage", io.dpone.storage.S3ObjectStore.Tuning.DEFAULTS),
                "stage", s3.endpoint(), Secret.of(s3.accessKey()), Secret.of(s3.secretKey()));
            ColumnarFastPath cfg = new ColumnarFastPath("enabled", "s3", null, "s3://stage/dpone/{run_id}/",
                "s3_stage", "inline", null, true, true);
            ObjectStaging staging = new ObjectStaging(store, RunPrefix.of(cfg.uriPrefix(), "run-glob"), cfg, "s3",
                null);
            for (int i = 0; i < 4; i++) { // chunk i holds i + 1 rows
                Path file = dir.resolve(String.format("chunk-%06d.parquet", i));
                try (ChunkWriter w = ChunkFormats.byName("parquet").open(file, columns)) {
                    for (int r = 0; r <= i; r++) {
                        ByteBuf buf = new ByteBuf(8);
                        buf.writeLongLE(r);
                        w.write(new Object[] {(long) r}, buf);
                    }
                }
                store.store().put(staging.key(file.getFileName().toString()), file);
                Files.delete(file);
            }
            String glob = PullProcessor.glob(staging, "parquet", List.of("chunk-000001.parquet",
                "chunk-000003.parquet"));
            assertEquals(staging.key("chunk-{000001,000003}.parquet"), glob);
            assertEquals(6, ch.operations().countObjectRows(staging.read(glob, "Parquet", "n Int64"),
                java.util.Map.of("s3_throw_on_zero_files_match", "1")));
            assertThrows(IllegalStateException.class, () -> PullProcessor.glob(staging, "parquet",
                List.of("chunk-000001.parquet", "other.parquet")));
        }
    }
}
