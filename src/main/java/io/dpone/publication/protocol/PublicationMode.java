package io.dpone.publication.protocol;

/** The two cluster publication modes (spec: cluster full-refresh publication). */
public enum PublicationMode {
    /** {@code internal_replication=true}: stage once into a Replicated*MergeTree candidate. */
    INTERNAL("cluster_internal", "internal", "dpone.clickhouse.cluster-internal-full-refresh-receipt.v1"),
    /** {@code internal_replication=false}: stage the same sealed artifact directly on every member. */
    EXTERNAL("cluster_external", "external", "dpone.clickhouse.cluster-external-full-refresh-receipt.v1");

    private final String mode;
    private final String replicationMode;
    private final String receiptSchema;

    PublicationMode(String mode, String replicationMode, String receiptSchema) {
        this.mode = mode;
        this.replicationMode = replicationMode;
        this.receiptSchema = receiptSchema;
    }

    /** {@code cluster_internal} or {@code cluster_external}. */
    public String mode() {
        return mode;
    }

    /** {@code internal} or {@code external}, as in the manifest. */
    public String replicationMode() {
        return replicationMode;
    }

    public String receiptSchema() {
        return receiptSchema;
    }

    public static PublicationMode ofReplicationMode(String value) {
        return value == null || value.equals("internal") ? INTERNAL : EXTERNAL;
    }
}
