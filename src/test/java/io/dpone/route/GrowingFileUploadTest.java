package io.dpone.route;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.storage.PartUpload;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The single-file route's upload while the file is written: parts of exactly the part size while the file grows, the
 * rest as the last part once the writer closed it, the object equal to the file; an abort leaves no object.
 */
class GrowingFileUploadTest {
    private static final int PART = (int) PartUpload.MIN_PART_SIZE;

    @TempDir
    Path dir;

    /** Records the parts; complete() and abort() as the store would see them. */
    private static final class Recording implements PartUpload {
        final List<Integer> sizes = Collections.synchronizedList(new ArrayList<>());
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        volatile boolean completed;
        volatile boolean aborted;
        RuntimeException failOnPart;

        @Override
        public synchronized void part(byte[] data, int length) {
            if (failOnPart != null) {
                throw failOnPart;
            }
            sizes.add(length);
            bytes.write(data, 0, length);
        }

        @Override
        public void complete() {
            completed = true;
        }

        @Override
        public void abort() {
            aborted = !completed;
        }
    }

    @Test
    void partsGoUpWhileTheFileGrowsAndTheRestWhenItIsClosed() throws Exception {
        byte[] content = new byte[3 * PART + 1234];
        new Random(5).nextBytes(content);
        Path file = dir.resolve("chunk-000000.parquet");
        Recording recording = new Recording();
        GrowingFileUpload upload;
        try (OutputStream out = Files.newOutputStream(file)) {
            upload = GrowingFileUpload.start(recording, file, PART, WorkerThreads.standalone());
            for (int off = 0; off < content.length; off += 100_000) { // written in pieces, as a writer appends
                out.write(content, off, Math.min(100_000, content.length - off));
                out.flush();
            }
        }
        upload.finish(Files.size(file));
        upload.await();
        assertEquals(List.of(PART, PART, PART, 1234), recording.sizes);
        assertArrayEquals(content, recording.bytes.toByteArray());
        assertTrue(recording.completed);
        upload.abort(); // a no-op once complete
        assertFalse(recording.aborted);
    }

    @Test
    void aFileOfExactlyOnePartIsOnePart() throws Exception {
        Path file = Files.write(dir.resolve("chunk-000000.parquet"), new byte[PART]);
        Recording recording = new Recording();
        GrowingFileUpload upload = GrowingFileUpload.start(recording, file, PART, WorkerThreads.standalone());
        upload.finish(PART);
        upload.await();
        assertEquals(List.of(PART), recording.sizes, "no empty last part");
    }

    @Test
    void anAbortedUploadCompletesNothing() throws Exception {
        Path file = Files.write(dir.resolve("chunk-000000.parquet"), new byte[10]);
        Recording recording = new Recording();
        GrowingFileUpload upload = GrowingFileUpload.start(recording, file, PART, WorkerThreads.standalone());
        long start = System.nanoTime();
        upload.abort();
        // the upload thread may not have begun yet: a stop then must not wait out its whole bound for it
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(tookMillis < WorkerThreads.STOP_MILLIS, "abort took " + tookMillis + " ms");
        assertThrows(IllegalStateException.class, upload::await);
        assertTrue(recording.aborted);
        assertFalse(recording.completed);
    }

    @Test
    void aFailedPartFailsTheWaitWithItsException() throws Exception {
        Path file = Files.write(dir.resolve("chunk-000000.parquet"), new byte[PART + 1]);
        Recording recording = new Recording();
        recording.failOnPart = new IllegalStateException("UploadPart refused");
        GrowingFileUpload upload = GrowingFileUpload.start(recording, file, PART, WorkerThreads.standalone());
        upload.finish(PART + 1);
        assertSame(recording.failOnPart, assertThrows(IllegalStateException.class, upload::await));
        assertTrue(recording.aborted);
    }
}
