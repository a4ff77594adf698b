package io.dpone.error;

/**
 * Stable blocker codes. Codes are part of the product contract: never rename one; add new ones in the same
 * dotted style and list them in {@code docs/blockers.md} (a test keeps the two in step).
 */
public enum BlockerCode {
    // manifest shape (dpone check)
    MANIFEST_UNREADABLE("manifest.unreadable"),
    MANIFEST_TOO_LARGE("manifest.too_large"),
    MANIFEST_INVALID_YAML("manifest.invalid_yaml"),
    MANIFEST_UNKNOWN_KEY("manifest.unknown_key"),
    MANIFEST_MISSING_FIELD("manifest.missing_field"),
    MANIFEST_WRONG_TYPE("manifest.wrong_type"),
    MANIFEST_INVALID_VALUE("manifest.invalid_value"),
    MANIFEST_INVALID_IDENTIFIER("manifest.invalid_identifier"),
    MANIFEST_LITERAL_SECRET("manifest.literal_secret"),
    MANIFEST_OPTION_UNSUPPORTED("manifest.option_unsupported"),
    MANIFEST_ROUTE_EXCLUDED("manifest.route_excluded"),
    // connections
    CONNECTION_REF_UNKNOWN("connection.ref_unknown"),
    CONNECTION_TYPE_MISMATCH("connection.type_mismatch"),
    CONNECTION_CONTEXT_INVALID("connection.context_invalid"),
    CONNECTION_CONTEXT_TOO_LARGE("connection.context_too_large"),
    CONNECTION_LITERAL_SECRET("connection.literal_secret"),
    CONNECTION_CREDENTIAL_MISSING("connection.credential_missing"),
    CONNECTION_CREDENTIAL_TOO_LARGE("connection.credential_too_large"),
    CONNECTION_FAILED("connection.failed"),
    RETRY_BUDGET_EXHAUSTED("connection.retry_budget_exhausted"),
    // run arguments
    RUN_ID_INVALID("run.run_id_invalid"),
    RUN_UNKNOWN("run.run_unknown"),
    // dpone discover
    DISCOVER_OUTPUT_INVALID("discover.output_invalid"),
    // dpone sql
    SQL_NOT_READ_ONLY("sql.not_read_only"),
    SQL_QUERY_FAILED("sql.query_failed"),
    RUN_ROUTE_UNAVAILABLE("run.route_unavailable"),
    RUN_GATES_MISSING("run.gates_missing"),
    RUN_NOT_PUBLISHED("run.not_published"),
    // source
    SOURCE_TABLE_MISSING("source.table_missing"),
    SOURCE_TYPE_UNSUPPORTED("source.type_unsupported"),
    SOURCE_READ_FAILED("source.read_failed"),
    DEMO_WRITE_FAILED("demo.write_failed"),
    SOURCE_VALUE_OUT_OF_RANGE("source.value_out_of_range"),
    SOURCE_MAX_BYTES_EXCEEDED("source.max_source_bytes_exceeded"),
    // sink
    SINK_ENGINE_UNAVAILABLE("sink.embedded_engine_unavailable"),
    SINK_DATABASE_NOT_ATOMIC("sink.database_not_atomic"),
    SINK_LOAD_FAILED("sink.load_failed"),
    SINK_PUBLISH_FAILED("sink.publish_failed"),
    SINK_TARGET_SCHEMA_MISMATCH("sink.target_schema_mismatch"),
    // route capability probes (spec: route capability certification)
    SINK_CLUSTER_PULL_UNSUPPORTED("sink.cluster_pull_unsupported"),
    SINK_NAMED_COLLECTION_MISSING("sink.auth.named_collection_missing"),
    SINK_NAMED_COLLECTION_UNUSABLE("sink.auth.named_collection_unusable"),
    FORMAT_PARQUET_READ_UNSUPPORTED("format.parquet_read_unsupported"),
    SOURCE_COLUMNAR_WRITER_MISSING("source.columnar_writer_missing"),
    STORAGE_RUNTIME_PUT_DENIED("storage.runtime_put_denied"),
    STORAGE_CLEANUP_FAILED("storage.cleanup_failed"),
    // certification
    CERTIFY_SCENARIO_UNKNOWN("certify.scenario_unknown"),
    CERTIFY_NO_GREEN_ROUTE("certify.no_green_route"),
    CERTIFY_ENVIRONMENT_NOT_APPROVED("certify.environment_not_approved"),
    // quality gates
    QUALITY_ROW_COUNT_MISMATCH("quality.row_count_mismatch"),
    QUALITY_NULL_COUNT_MISMATCH("quality.null_count_mismatch"),
    QUALITY_TYPED_HASH_MISMATCH("quality.typed_hash_mismatch"),
    QUALITY_METADATA_COLUMNS_MISSING("quality.metadata_columns_missing"),
    QUALITY_DISTINCT_COUNT_MISMATCH("quality.distinct_count_mismatch"),
    QUALITY_FIDELITY_MISMATCH("quality.fidelity_mismatch"),
    QUALITY_STALE_ARTIFACTS("quality.stale_artifacts"),
    // CDC runtime (spec: CDC runtime orchestrator; io.dpone.cdc.CdcBlockers holds the same strings)
    CDC_DUPLICATE_EVENTS("cdc_runtime.duplicate_events"),
    CDC_SINK_APPLY_FAILED("cdc_runtime.sink_apply_failed"),
    CDC_SINK_NOT_DURABLE("cdc_runtime.sink_not_durable"),
    CDC_NEXT_OFFSET_MISSING("cdc_runtime.next_offset_missing"),
    CDC_EVENTS_UNREADABLE("cdc_runtime.events_unreadable"),
    CDC_EVENTS_INVALID("cdc_runtime.events_invalid"),
    CDC_CHECKPOINT_INVALID("cdc_runtime.checkpoint_invalid"),
    CDC_CHECKPOINT_STREAM_MISMATCH("cdc_runtime.checkpoint_stream_mismatch"),
    CDC_EVENT_STREAM_MISMATCH("cdc_runtime.event_stream_mismatch"),
    CDC_BACKEND_MISMATCH("cdc_runtime.backend_mismatch"),
    CDC_OFFSET_REGRESSION("cdc_runtime.offset_regression"),
    CDC_MODE_UNSUPPORTED("cdc_runtime.mode_unsupported"),
    CDC_INVALID_ARGUMENT("cdc_runtime.invalid_argument"),
    CDC_SOURCE_NOT_ENABLED("cdc_runtime.source_not_enabled"),
    CDC_RESYNC_REQUIRED("cdc_runtime.cdc_resync_required"),
    CDC_CHANGE_TRACKING_RESYNC_REQUIRED("cdc_runtime.change_tracking_resync_required"),
    CDC_OFFSET_CONFLICT("cdc_runtime.offset_conflict"),
    CDC_CHANGE_BEYOND_NEXT_OFFSET("cdc_runtime.change_beyond_next_offset"),
    CDC_VALUE_OUT_OF_RANGE("cdc_runtime.value_out_of_range"),
    CDC_SCHEMA_CHANGED("cdc_runtime.schema_changed"),
    CDC_TABLE_NOT_STREAMABLE("cdc_runtime.table_not_streamable"),
    // CDC promotion bundle (dpone ops cdc-promotion-bundle; io.dpone.cdc.bundle)
    CDC_BUNDLE_SOURCE_UNREACHABLE("cdc_bundle.source_unreachable"),
    CDC_BUNDLE_SINK_UNREACHABLE("cdc_bundle.sink_unreachable"),
    CDC_BUNDLE_UNIQUE_KEY_MISMATCH("cdc_bundle.unique_key_mismatch"),
    CDC_BUNDLE_UNIQUE_KEY_NOT_CAPTURED("cdc_bundle.unique_key_not_captured"),
    CDC_BUNDLE_UNREADABLE("cdc_bundle.bundle_unreadable"),
    CDC_BUNDLE_NOT_APPROVABLE("cdc_bundle.not_approvable"),
    CDC_BUNDLE_DIGEST_DRIFT("cdc_bundle.digest_drift"),
    CDC_BUNDLE_NOT_APPROVED("cdc_bundle.not_approved"),
    CDC_BUNDLE_SINK_LOG_MISMATCH("cdc_bundle.sink_log_mismatch"),
    CDC_BUNDLE_RETENTION_TOO_SHORT("cdc_bundle.retention_too_short"),
    CDC_BUNDLE_SOURCE_PERMISSION_MISSING("cdc_bundle.source_permission_missing"),
    CDC_BUNDLE_SINK_PRIVILEGE_MISSING("cdc_bundle.sink_privilege_missing"),
    CDC_BUNDLE_SERVING_TARGET_NOT_OWNED("cdc_bundle.serving_target_not_owned"),
    CDC_BUNDLE_SERVING_CONFIG_INVALID("cdc_bundle.serving_config_invalid"),
    // CDC ClickHouse materialization (io.dpone.cdc.clickhouse.CdcMaterializer holds the same strings)
    CDC_MATERIALIZE_INVALID_ARGUMENT("cdc_materialize.invalid_argument"),
    CDC_MATERIALIZE_LOG_MISSING("cdc_materialize.log_missing"),
    CDC_MATERIALIZE_SNAPSHOT_UNUSABLE("cdc_materialize.snapshot_unusable"),
    CDC_MATERIALIZE_NOT_A_CDC_LOG("cdc_materialize.not_a_cdc_log"),
    CDC_MATERIALIZE_UNIQUE_KEY_MISSING("cdc_materialize.unique_key_missing"),
    CDC_MATERIALIZE_UNIQUE_KEY_MISMATCH("cdc_materialize.unique_key_mismatch"),
    CDC_MATERIALIZE_TARGET_NOT_OWNED("cdc_materialize.target_not_owned"),
    CDC_MATERIALIZE_VERIFY_FAILED("cdc_materialize.verify_failed"),
    // dpone ops cdc-verify (io.dpone.cdc.verify.CdcVerifier)
    CDC_VERIFY_INVALID_ARGUMENT("cdc_verify.invalid_argument"),
    CDC_VERIFY_SERVING_UNUSABLE("cdc_verify.serving_unusable"),
    CDC_VERIFY_MISMATCH("cdc_verify.mismatch"),
    CDC_VERIFY_INCONCLUSIVE("cdc_verify.inconclusive"),
    // CDC input files, bounded before they are read (io.dpone.cdc.local.StrictJson)
    CDC_EVENTS_TOO_LARGE("cdc_runtime.events_too_large"),
    CDC_CHECKPOINT_TOO_LARGE("cdc_runtime.checkpoint_too_large"),
    // cluster publication, static plan (spec: cluster full-refresh publication)
    PUBLICATION_EXTERNAL_REPLICATED_ENGINE("publication.external_replicated_engine"),
    PUBLICATION_INTERNAL_ENGINE_NOT_REPLICATED("publication.internal_engine_not_replicated"),
    PUBLICATION_DDL_SCOPE_NOT_CLUSTER("publication.ddl_scope_not_cluster"),
    PUBLICATION_CANDIDATE_DATABASE_MISMATCH("publication.candidate_database_mismatch"),
    PUBLICATION_LINEAGE_UNSUPPORTED("publication.lineage_unsupported"),
    PUBLICATION_ARTIFACT_STORE_MISSING("publication.artifact_store_missing"),
    PUBLICATION_ARTIFACT_STORE_NOT_ABSOLUTE("publication.artifact_store_not_absolute"),
    // cluster publication runtime admission
    PUBLICATION_CLUSTER_NOT_ONE_SHARD("publication.cluster_not_one_shard"),
    PUBLICATION_CLUSTER_TOO_FEW_MEMBERS("publication.cluster_too_few_members"),
    PUBLICATION_INTERNAL_REPLICATION_MIXED("publication.internal_replication_mixed"),
    PUBLICATION_INTERNAL_REPLICATION_MISMATCH("publication.internal_replication_mismatch"),
    PUBLICATION_CLUSTER_DDL_UNAVAILABLE("publication.cluster_ddl_unavailable"),
    // cluster publication protocol
    PUBLICATION_FENCED("publication.fenced"),
    PUBLICATION_AUTHORITY_CONFLICT("publication.authority_conflict"),
    PUBLICATION_AUTHORITY_UNAVAILABLE("publication.authority_unavailable"),
    PUBLICATION_ARTIFACT_MISSING("publication.artifact_missing"),
    PUBLICATION_ARTIFACT_CORRUPT("publication.artifact_corrupt"),
    PUBLICATION_INVENTORY_CHANGED("publication.inventory_changed"),
    PUBLICATION_CANDIDATE_FOREIGN("publication.candidate_foreign"),
    PUBLICATION_MEMBER_UNREACHABLE("publication.member_unreachable"),
    PUBLICATION_MEMBER_LOAD_MISMATCH("publication.member_load_mismatch"),
    PUBLICATION_REPLICA_NOT_CONVERGED("publication.replica_not_converged"),
    PUBLICATION_BARRIER_FAILED("publication.barrier_failed"),
    PUBLICATION_DDL_PENDING("publication.ddl_pending"),
    PUBLICATION_DDL_FAILED("publication.ddl_failed"),
    PUBLICATION_DDL_QUEUE_ENTRY_EXPIRED("publication.ddl_queue_entry_expired"),
    PUBLICATION_RECONCILIATION_FAILED("publication.reconciliation_failed"),
    PUBLICATION_CLEANUP_INCOMPLETE("publication.cleanup_incomplete"),
    // cluster publication adapters (members, authority, artifact store, distributed DDL, admission)
    PUBLICATION_MEMBER_STATEMENT_FAILED("publication.member_statement_failed"),
    PUBLICATION_MEMBER_UNRESOLVED("publication.member_unresolved"),
    PUBLICATION_ENGINE_INVALID("publication.engine_invalid"),
    PUBLICATION_ARTIFACT_STORE_INVALID("publication.artifact_store_invalid"),
    PUBLICATION_ARTIFACT_WRITE_FAILED("publication.artifact_write_failed"),
    PUBLICATION_EXTERNAL_ROW_BUDGET_EXCEEDED("publication.external_content_row_budget_exceeded"),
    PUBLICATION_AUTHORITY_RECORD_INVALID("publication.authority_record_invalid"),
    PUBLICATION_DATABASE_NOT_ATOMIC("publication.database_not_atomic"),
    PUBLICATION_ENGINE_MODE_MISMATCH("publication.engine_mode_mismatch"),
    PUBLICATION_DISTRIBUTED_TARGET("publication.distributed_target"),
    PUBLICATION_GRANTS_MISSING("publication.grants_missing"),
    PUBLICATION_DDL_RETENTION_TOO_SHORT("publication.ddl_queue_retention_too_short"),
    PUBLICATION_INVENTORY_INCOMPLETE("publication.inventory_incomplete"),
    PUBLICATION_INVENTORY_VIEWS_DIFFER("publication.inventory_views_differ"),
    PUBLICATION_ADMISSION_QUERY_FAILED("publication.admission_query_failed"),
    // dpone serve (io.dpone.serve)
    SERVE_CONFIG_UNREADABLE("serve.config_unreadable"),
    SERVE_CONFIG_INVALID("serve.config_invalid"),
    SERVE_CONFIG_TOO_LARGE("serve.config_too_large"),
    SERVE_ROUTE_FILE_INVALID("serve.route_file_invalid"),
    SERVE_ROUTE_FILE_TOO_LARGE("serve.route_file_too_large"),
    SERVE_ROUTE_COMPONENT_REFUSED("serve.route_component_refused"),
    SERVE_ROUTE_ID_RESERVED("serve.route_id_reserved"),
    SERVE_ROUTE_LOADER_FAILED("serve.route_loader_failed"),
    SERVE_HTTP_PORT_INVALID("serve.http_port_invalid"),
    SERVE_HTTP_PORT_UNAVAILABLE("serve.http_port_unavailable"),
    SERVE_RUN_SKIPPED_BUSY("serve.run_skipped_busy"),
    SERVE_SHUTDOWN_INTERRUPTED("serve.shutdown_interrupted"),
    // generic
    PHASE_TIMEOUT("runtime.phase_timeout"),
    INTERRUPTED("runtime.interrupted"),
    RUNTIME_UNSAFE_PATH("runtime.unsafe_path"),
    INTERNAL_ERROR("runtime.internal_error");

    private final String code;

    BlockerCode(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }
}
