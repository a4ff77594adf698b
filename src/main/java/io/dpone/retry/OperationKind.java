package io.dpone.retry;

/**
 * The idempotent operations a run may try again after a transient fault, each counted on its own in the reports and
 * metrics. Nothing else is retried: an EXCHANGE, the fence, a CDC offset commit and any DDL reconcile by reading state
 * (the protocols already do), never by running again blindly.
 */
public enum OperationKind {
    /** A chunk insert carrying its {@code insert_deduplication_token}: a second delivery adds no rows. */
    CHUNK_INSERT("chunk_insert"),
    /** A read-only query (statistics, catalog, settings). */
    METADATA_QUERY("metadata_query"),
    /** The rest of a source key range, re-read on a fresh connection after the last key delivered. */
    SOURCE_READ("source_read"),
    /** An object put (a whole object, or one part of a multipart upload, under the same key and part number). */
    OBJECT_PUT("object_put"),
    /** An object get or listing. */
    OBJECT_GET("object_get");

    private final String key;

    OperationKind(String key) {
        this.key = key;
    }

    /** The snake_case name reports, JMX and Prometheus use. */
    public String key() {
        return key;
    }
}
