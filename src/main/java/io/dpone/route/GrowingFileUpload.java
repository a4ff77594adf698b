package io.dpone.route;

import io.dpone.storage.PartUpload;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

/**
 * Uploads a chunk file while the encoder is still writing it (the single-file route's whole table), on its own thread
 * ({@code dpone-chunk-upload}): every time the file has grown by a part, that part goes up; when the encoder has
 * closed the file ({@link #finish(long)}), the rest goes up as the last part and the upload completes. The chunk
 * writers only append, so bytes the file already holds never change. Memory: one part buffer.
 *
 * <p>{@link #await()} waits for the completed object (rethrowing an upload failure); {@link #abort()} stops the
 * thread and discards the parts, so a failed or cancelled run leaves no object and no pending upload behind.
 */
final class GrowingFileUpload {
    /** Bytes per part (S3's minimum is 5 MiB); the only buffer the upload holds. */
    static final int PART_SIZE = 16 << 20;
    private static final long POLL_MILLIS = 50;

    private final PartUpload upload;
    private final Path file;
    private final int partSize;
    private long finalSize = -1;
    private boolean done;
    private boolean aborted;
    private RuntimeException failure;
    private long busyNanos;
    private WorkerThreads.Worker thread;

    private GrowingFileUpload(PartUpload upload, Path file, int partSize) {
        if (partSize < PartUpload.MIN_PART_SIZE) {
            throw new IllegalArgumentException("part size below S3's minimum: " + partSize);
        }
        this.upload = upload;
        this.file = file;
        this.partSize = partSize;
    }

    /** Starts uploading {@code file} (already created, possibly empty) through {@code upload}. */
    static GrowingFileUpload start(PartUpload upload, Path file, int partSize, WorkerThreads workers) {
        GrowingFileUpload u = new GrowingFileUpload(upload, file, partSize);
        u.thread = workers.start("dpone-chunk-upload", u::run);
        return u;
    }

    /** The writer closed the file at {@code size} bytes: the rest goes up and the upload completes. */
    synchronized void finish(long size) {
        finalSize = size;
        notifyAll();
    }

    /** Waits for the completed object; rethrows the upload's failure. */
    synchronized void await() {
        while (!done && failure == null && !aborted) {
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the chunk upload");
            }
        }
        if (failure != null) {
            throw failure;
        }
        if (!done) {
            throw new IllegalStateException("the chunk upload was aborted");
        }
    }

    /** The thread's time spent reading and uploading parts (not waiting for the file to grow). */
    synchronized long busyMillis() {
        return TimeUnit.NANOSECONDS.toMillis(busyNanos);
    }

    /** Stops the upload and discards its parts; a no-op once the object is complete. */
    void abort() {
        synchronized (this) {
            if (done || aborted) {
                return;
            }
            aborted = true;
            notifyAll();
        }
        WorkerThreads.stop(thread);
        try {
            upload.abort();
        } catch (RuntimeException ignored) {
            // the run's prefix is deleted with it; an upload never completed holds no object
        }
    }

    private void run() {
        byte[] buffer = new byte[partSize];
        long sent = 0;
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            while (true) {
                long end;
                synchronized (this) {
                    while (!aborted && finalSize < 0 && Files.size(file) - sent <= partSize) {
                        wait(POLL_MILLIS);
                    }
                    if (aborted) {
                        return;
                    }
                    end = finalSize;
                }
                long t0 = System.nanoTime();
                long available = end >= 0 ? end : Files.size(file);
                // every part but the last holds exactly partSize bytes, the last the rest (1..partSize bytes): a part
                // goes up before the end only while more than a part is there
                while (available - sent > partSize) {
                    read(in, buffer, sent, partSize);
                    upload.part(buffer, partSize);
                    sent += partSize;
                }
                if (end >= 0) {
                    int last = (int) (end - sent);
                    read(in, buffer, sent, last);
                    upload.part(buffer, last);
                    upload.complete();
                    synchronized (this) {
                        busyNanos += System.nanoTime() - t0;
                        done = true;
                        notifyAll();
                    }
                    return;
                }
                synchronized (this) {
                    busyNanos += System.nanoTime() - t0;
                }
            }
        } catch (InterruptedException e) {
            // abort()
        } catch (IOException | RuntimeException e) {
            RuntimeException f = e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
            try {
                upload.abort();
            } catch (RuntimeException abortFailure) {
                f.addSuppressed(abortFailure);
            }
            synchronized (this) {
                failure = f;
                notifyAll();
            }
        }
    }

    private static void read(FileChannel in, byte[] buffer, long position, int length) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(buffer, 0, length);
        while (b.hasRemaining()) {
            if (in.read(b, position + b.position()) < 0) {
                throw new IOException("chunk file shrank during its upload");
            }
        }
    }
}
