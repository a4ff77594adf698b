package io.dpone.storage;

import java.io.IOException;

import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Maps the SDK and I/O failures of one bucket's requests to a typed {@link ObjectStoreException} whose message
 * carries the operation, the {@code s3://bucket/key} and codes, never SDK text or secrets.
 */
final class S3Failures {
    private final S3Client s3;
    private final String bucket;

    S3Failures(S3Client s3, String bucket) {
        this.s3 = s3;
        this.bucket = bucket;
    }

    /** {@code s3://bucket/key}, as failure messages name an object. */
    String where(String key) {
        return "s3://" + bucket + "/" + key;
    }

    /** Maps SDK and I/O failures to a typed exception whose message carries codes, never SDK text or secrets. */
    ObjectStoreException fail(String operation, String key, Exception e) {
        String prefix = operation + " " + where(key) + " failed: ";
        if (e instanceof AwsServiceException ase) {
            int status = ase.statusCode();
            String code = ase.awsErrorDetails() == null ? null : ase.awsErrorDetails().errorCode();
            ObjectStoreException.Reason reason = status == 401 || status == 403
                    ? ObjectStoreException.Reason.ACCESS_DENIED
                    : status == 404 ? ObjectStoreException.Reason.NOT_FOUND : ObjectStoreException.Reason.FAILED;
            return new ObjectStoreException(reason, prefix + "HTTP " + status + (code == null ? "" : " " + code), e,
                io.dpone.retry.TransientFaults.isTransientHttpStatus(status));
        }
        if (e instanceof SdkClientException && e.getCause() instanceof IOException cause) {
            // a refused connect is nothing listening there (a wrong port, a store that is down): not worth a retry
            return new ObjectStoreException(ObjectStoreException.Reason.UNREACHABLE,
                    prefix + "endpoint unreachable (" + cause.getClass().getSimpleName() + ")", e,
                    !io.dpone.retry.TransientFaults.refused(e));
        }
        return new ObjectStoreException(ObjectStoreException.Reason.FAILED,
                prefix + e.getClass().getSimpleName(), e, io.dpone.retry.TransientFaults.isTransient(e));
    }

    /**
     * Like {@link #fail}, for uploads. A server may reject an upload (bad credentials, missing bucket) before
     * reading its body and close the connection; the client then sees a broken pipe, which looks like an
     * unreachable endpoint. On that path only, a body-less HeadBucket tells the two apart.
     */
    ObjectStoreException failUpload(String operation, String key, Exception e) {
        ObjectStoreException failure = fail(operation, key, e);
        if (failure.reason() == ObjectStoreException.Reason.UNREACHABLE) {
            try {
                s3.headBucket(b -> b.bucket(bucket));
            } catch (AwsServiceException probe) {
                ObjectStoreException typed = fail(operation, key, probe);
                typed.addSuppressed(failure);
                return typed;
            } catch (RuntimeException probe) {
                failure.addSuppressed(probe);
            }
        }
        return failure;
    }
}
