package io.dpone.storage;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * Uploads one file with CreateMultipartUpload/UploadPart/CompleteMultipartUpload, every part with its Content-MD5,
 * and aborts the upload if any step fails. Parts are buffered in memory one at a time; the part size grows beyond
 * the configured one when the file would otherwise need more than 10,000 parts.
 */
final class S3MultipartUpload {
    private static final int MAX_PARTS = 10_000;

    private final S3Client s3;
    private final String bucket;
    private final long minPartSize;
    private final S3Failures failures;

    S3MultipartUpload(S3Client s3, String bucket, long minPartSize, S3Failures failures) {
        this.s3 = s3;
        this.bucket = bucket;
        this.minPartSize = minPartSize;
        this.failures = failures;
    }

    /** Uploads {@code file} ({@code size} bytes) to {@code key}. */
    void put(String key, Path file, long size) {
        long partSize = Math.max(minPartSize, (size + MAX_PARTS - 1) / MAX_PARTS);
        if (partSize > S3ObjectStore.Tuning.MAX_PART_SIZE) {
            throw new ObjectStoreException(ObjectStoreException.Reason.FAILED,
                    "file " + file + " (" + size + " bytes) is too large for " + failures.where(key), null);
        }
        String uploadId;
        try {
            uploadId = s3.createMultipartUpload(b -> b.bucket(bucket).key(key)).uploadId();
        } catch (RuntimeException e) {
            throw failures.fail("CreateMultipartUpload", key, e);
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[(int) partSize];
            List<CompletedPart> parts = new ArrayList<>();
            for (int partNumber = 1; (long) (partNumber - 1) * partSize < size; partNumber++) {
                int expected = (int) Math.min(partSize, size - (partNumber - 1) * partSize);
                int n = in.readNBytes(buffer, 0, expected);
                if (n != expected) {
                    throw new IOException("file shrank during upload");
                }
                String md5 = ContentMd5.of(buffer, 0, n);
                int number = partNumber;
                String etag = s3.uploadPart(b -> b.bucket(bucket).key(key).uploadId(uploadId)
                                .partNumber(number).contentLength((long) n).contentMD5(md5),
                        RequestBody.fromContentProvider(() -> new ByteArrayInputStream(buffer, 0, n),
                                n, "application/octet-stream")).eTag();
                parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
            }
            s3.completeMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId)
                    .multipartUpload(m -> m.parts(parts)));
        } catch (IOException | RuntimeException e) {
            ObjectStoreException failure = failures.failUpload("multipart upload", key, e);
            try {
                s3.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId));
            } catch (RuntimeException abortFailure) {
                failure.addSuppressed(abortFailure);
            }
            throw failure;
        }
    }

    /** A multipart upload fed part by part ({@link PartUpload}); created with CreateMultipartUpload. */
    PartUpload start(String key) {
        String uploadId;
        try {
            uploadId = s3.createMultipartUpload(b -> b.bucket(bucket).key(key)).uploadId();
        } catch (RuntimeException e) {
            throw failures.fail("CreateMultipartUpload", key, e);
        }
        return new PartUpload() {
            private final List<CompletedPart> parts = new ArrayList<>();
            private boolean over;

            @Override
            public void part(byte[] data, int length) {
                if (over) {
                    throw new IllegalStateException("multipart upload of " + key + " is over");
                }
                if (parts.size() >= MAX_PARTS) {
                    fail("UploadPart", new IllegalStateException("more than " + MAX_PARTS + " parts"));
                }
                int number = parts.size() + 1;
                try {
                    String md5 = ContentMd5.of(data, 0, length);
                    String etag = s3.uploadPart(b -> b.bucket(bucket).key(key).uploadId(uploadId)
                            .partNumber(number).contentLength((long) length).contentMD5(md5),
                        RequestBody.fromContentProvider(() -> new ByteArrayInputStream(data, 0, length), length,
                            "application/octet-stream")).eTag();
                    parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
                } catch (RuntimeException e) {
                    fail("UploadPart", e);
                }
            }

            @Override
            public void complete() {
                if (over) {
                    throw new IllegalStateException("multipart upload of " + key + " is over");
                }
                try {
                    s3.completeMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId)
                            .multipartUpload(m -> m.parts(parts)));
                    over = true;
                } catch (RuntimeException e) {
                    fail("CompleteMultipartUpload", e);
                }
            }

            @Override
            public void abort() {
                if (over) {
                    return;
                }
                over = true;
                s3.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId));
            }

            private void fail(String operation, Exception e) {
                ObjectStoreException failure = failures.failUpload(operation, key, e);
                if (failure.transientFault() && !"CompleteMultipartUpload".equals(operation)) {
                    // left open for a retry of the same part number (RetryingObjectStore), which aborts it when
                    // the retries end; a caller without retries aborts it on the failure
                    throw failure;
                }
                try {
                    abort();
                } catch (RuntimeException abortFailure) {
                    failure.addSuppressed(abortFailure);
                }
                throw failure;
            }
        };
    }
}
