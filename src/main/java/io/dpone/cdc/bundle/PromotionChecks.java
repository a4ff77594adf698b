package io.dpone.cdc.bundle;

import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.CdcHashes;
import io.dpone.cdc.bundle.Findings.Found;
import io.dpone.cdc.bundle.Findings.Lane;
import io.dpone.cdc.mssql.SqlServerCdcReader;
import io.dpone.cdc.mssql.SqlServerChangeTrackingReader;
import io.dpone.cdc.runtime.CdcMode;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.manifest.ValuePolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Builds the {@link CdcPromotionBundle} of one live stream: opens the source alias read-only and checks what the live
 * readers ({@link SqlServerCdcReader}, {@link SqlServerChangeTrackingReader}) will need, with the same catalogue
 * calls they make, so the checks run alike on SQL Server and its emulation; then the sink. The check families, in
 * order:
 * <ol>
 *   <li>{@code stream_options} (here): the options as {@code cdc-runtime-run --mode live} validates them, the
 *       aliases' types and credential sources;</li>
 *   <li>{@link SourceChecks}: {@code source_reachable}; per table {@code source_table}, {@code capture_enabled},
 *       {@code source_permissions} ({@link SourcePermissions}), {@code unique_keys} and {@code column_types}
 *       ({@link KeyAndTypeChecks}); {@code cleanup_retention} ({@link RetentionCheck});</li>
 *   <li>{@code sink_reachable} (here, through {@code sinkReach});</li>
 *   <li>{@link SinkChecks}: {@code sink_privileges}; per table {@code sink_log} and {@code serving_target}
 *       ({@link ServingTargetCheck}); {@code offset_store}.</li>
 * </ol>
 * A multi-table stream ({@code --table}) runs the per-table checks once per table, into that table's section
 * ({@link CdcPromotionBundle.TableBundle}); its blockers carry {@code details.table}. Every failed check adds typed
 * blockers; a check whose input failed is {@code skipped}. Nothing is written to the source or the sink. The digest
 * pins the stream configuration and the source facts; the retention, the permissions, the privileges, the sink's
 * state and the serving target are checked, not pinned.
 */
public final class PromotionChecks {
    private final CdcRunOptions options;
    private final ConnectionContext context;
    private final Function<String, String> sinkReach;
    /** How often the stream is expected to tick ({@code --tick-interval}, a serve schedule); null when unknown. */
    private final Duration tickInterval;
    /** Where the stream's materialization serves (null: none named). */
    private final ServingPlan serving;
    private final Findings findings = new Findings();

    /**
     * @param options   the stream, as {@code cdc-runtime-run --mode live} takes it (the mode is forced to live)
     * @param sinkReach the round trip to an alias: null when it answered, else why not, redacted
     *                  ({@code io.dpone.serve.ConnectionReach#reach} in the CLI)
     */
    private PromotionChecks(CdcRunOptions options, ConnectionContext context, Function<String, String> sinkReach,
                            Duration tickInterval, ServingPlan serving) {
        this.options = options.mode() == CdcMode.live ? options : options.toBuilder().mode(CdcMode.live).build();
        this.context = context;
        this.sinkReach = sinkReach;
        this.tickInterval = tickInterval;
        this.serving = serving;
        if (this.options.multiTable()) {
            for (int i = 0; i < this.options.tables().size(); i++) {
                CdcRunOptions.Table t = this.options.tables().get(i);
                findings.lanes.add(new Lane(t.sourceSchema(), t.sourceTable(), t.targetDataset(), t.uniqueKeys(),
                    captureInstance(this.options.backend(), null, t.sourceSchema(), t.sourceTable()),
                    "--table[" + i + "].unique_keys", new Found()));
            }
        } else {
            findings.lanes.add(new Lane(this.options.sourceSchema(), this.options.sourceTable(),
                this.options.targetDataset(), this.options.uniqueKeys(), captureInstance(this.options.backend(),
                this.options.captureInstance(), this.options.sourceSchema(), this.options.sourceTable()),
                "--unique-key", findings.stream));
        }
    }

    /** Runs every check and returns the bundle (never throws a typed failure: it lands in the bundle's blockers). */
    public static CdcPromotionBundle build(CdcRunOptions options, ConnectionContext context,
                                           Function<String, String> sinkReach) {
        return build(options, context, sinkReach, null);
    }

    /**
     * As above; {@code tickInterval} (null when unknown) is how often the stream will tick, which the source's
     * retention must exceed ({@code cleanup_retention}). It is checked, not pinned in the digest.
     */
    public static CdcPromotionBundle build(CdcRunOptions options, ConnectionContext context,
                                           Function<String, String> sinkReach, Duration tickInterval) {
        return build(options, context, sinkReach, tickInterval, null);
    }

    /** As above, with the serving target the stream materializes into ({@code serving_target}; null: none). */
    public static CdcPromotionBundle build(CdcRunOptions options, ConnectionContext context,
                                           Function<String, String> sinkReach, Duration tickInterval,
                                           ServingPlan serving) {
        return new PromotionChecks(options, context, sinkReach, tickInterval, serving).run();
    }

    /** The capture instance a table is read from ({@code mssql_cdc}: the named one or the default), else null. */
    private static String captureInstance(String backend, String named, String schema, String table) {
        if (!SqlServerCdcReader.BACKEND.equals(backend)) {
            return null;
        }
        return named != null ? named : SqlServerCdcReader.defaultCaptureInstance(schema, table);
    }

    private CdcPromotionBundle run() {
        List<Blocker> invalid = new ArrayList<>(options.validate());
        if (options.sourceConnectionId() != null && invalid.isEmpty()) {
            context.check(options.sourceConnectionId(), ConnectionType.MSSQL, "--source-connection-id")
                .ifPresent(invalid::add);
        }
        if (options.sinkConnectionId() != null && invalid.isEmpty()) {
            context.check(options.sinkConnectionId(), ConnectionType.CLICKHOUSE, "--sink-connection-id")
                .ifPresent(invalid::add);
        }
        if (invalid.isEmpty()) {
            credentialSource(options.sourceConnectionId(), "--source-connection-id").ifPresent(invalid::add);
            credentialSource(options.sinkConnectionId(), "--sink-connection-id").ifPresent(invalid::add);
        }
        Map<String, Map<String, Object>> facts = new LinkedHashMap<>();
        SourceChecks source = new SourceChecks(options, context, findings, tickInterval);
        SinkChecks sink = new SinkChecks(options, context, findings, serving);
        if (!invalid.isEmpty()) {
            String why = "the stream's options are invalid";
            findings.fail("stream_options", why, invalid);
            findings.skip("source_reachable", why);
            source.skipAll(why);
            findings.skip("sink_reachable", why);
            sink.skipAll(why);
        } else {
            findings.pass("stream_options", "options valid for cdc-runtime-run --mode live");
            source.run(facts);
            String why = sinkReach.apply(options.sinkConnectionId());
            if (why == null) {
                findings.pass("sink_reachable", "sink alias " + options.sinkConnectionId() + " answered");
                sink.run();
            } else {
                findings.fail("sink_reachable", "sink alias " + options.sinkConnectionId() + " did not answer",
                    List.of(Blocker.of(BlockerCode.CDC_BUNDLE_SINK_UNREACHABLE, "--sink-connection-id",
                        "sink alias '" + options.sinkConnectionId() + "' did not answer: " + why)));
                sink.skipAll("the sink did not answer");
            }
        }
        Found stream = findings.stream;
        if (!options.multiTable()) {
            Map<String, Object> streamConfig = stream(options, findings.lanes.get(0).captureInstance());
            Map<String, Object> sourceFacts = facts.get(findings.lanes.get(0).name());
            return new CdcPromotionBundle(CdcPromotionBundle.SCHEMA, stream.blockers.isEmpty(), streamConfig,
                stream.checks, stream.verdicts, sourceFacts, null, stream.blockers, digest(streamConfig, sourceFacts));
        }
        Map<String, Object> streamConfig = stream(options, null);
        List<CdcPromotionBundle.TableBundle> tables = new ArrayList<>();
        Map<String, Object> sourceTables = new TreeMap<>();
        List<Blocker> all = new ArrayList<>(stream.blockers);
        for (Lane l : findings.lanes) {
            Map<String, Object> tableFacts = facts.get(l.name());
            sourceTables.put(l.name(), tableFacts);
            all.addAll(l.found().blockers);
            tables.add(new CdcPromotionBundle.TableBundle(l.name(), l.schema(), l.table(), l.targetDataset(),
                l.uniqueKeys(), l.captureInstance(), l.found().blockers.isEmpty(), l.found().checks,
                l.found().verdicts, tableFacts, l.found().blockers, digest(laneConfig(l), tableFacts)));
        }
        Map<String, Object> sourceFacts = new LinkedHashMap<>();
        sourceFacts.put("backend", options.backend());
        sourceFacts.put("tables", sourceTables);
        return new CdcPromotionBundle(CdcPromotionBundle.SCHEMA, all.isEmpty(), streamConfig, stream.checks,
            List.of(), sourceFacts, tables, all, digest(streamConfig, sourceFacts));
    }

    /** As the live tick: {@code --credentials-source} must name where the alias takes its credential from. */
    private Optional<Blocker> credentialSource(String alias, String subject) {
        String wanted = options.credentialsSource();
        io.dpone.connect.ContextEntry e = context.entry(alias).orElse(null);
        if (wanted == null || e == null || (e.passwordEnv() == null && e.passwordFile() == null)) {
            return Optional.empty();
        }
        boolean matches = wanted.equals("env") ? e.passwordEnv() != null : e.passwordFile() != null;
        return matches ? Optional.empty() : Optional.of(CdcBlockers.blocker(CdcBlockers.INVALID_ARGUMENT, subject,
            "--credentials-source " + wanted + " but alias '" + alias + "' takes its credential from "
                + (e.passwordEnv() != null ? "password_env" : "password_file")));
    }

    /** SHA-256 over the canonical JSON of the stream configuration and the source facts (null when unread). */
    public static String digest(Map<String, Object> stream, Map<String, Object> source) {
        Map<String, Object> pinned = new LinkedHashMap<>();
        pinned.put("stream", stream);
        pinned.put("source", source);
        return CdcHashes.sha256Hex(CdcHashes.canonicalJson(pinned));
    }

    /**
     * The stream configuration the bundle pins: what {@code cdc-runtime-run --mode live} and {@code serve} run. A
     * multi-table stream names its {@code tables} (each {@link #laneConfig}, in the stream's order: the order is part
     * of the stream's identity) instead of the single table's {@code source_schema}, {@code source_table},
     * {@code target_dataset}, {@code unique_keys} and {@code capture_instance}.
     */
    public static Map<String, Object> stream(CdcRunOptions o, String captureInstance) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("mode", CdcMode.live.name());
        s.put("source", o.source());
        s.put("sink", o.sink());
        s.put("backend", o.backend());
        s.put("pipeline_name", o.pipelineName());
        if (o.multiTable()) {
            List<Map<String, Object>> tables = new ArrayList<>();
            for (CdcRunOptions.Table t : o.tables()) {
                tables.add(laneConfig(t.sourceSchema(), t.sourceTable(), t.targetDataset(), t.uniqueKeys(),
                    captureInstance(o.backend(), null, t.sourceSchema(), t.sourceTable())));
            }
            s.put("tables", tables);
        } else {
            s.put("source_schema", o.sourceSchema());
            s.put("source_table", o.sourceTable());
            s.put("target_dataset", o.targetDataset());
            s.put("unique_keys", o.uniqueKeys());
        }
        s.put("source_connection_id", o.sourceConnectionId());
        s.put("sink_connection_id", o.sinkConnectionId());
        s.put("credentials_source", o.credentialsSource());
        if (!o.multiTable()) {
            s.put("capture_instance", captureInstance);
        }
        s.put("max_events", o.batchSize());
        if (o.allowCaptureInstanceDdl()) {
            // pinned only when on, so the digests of streams approved before the flag existed stay the same
            s.put("allow_capture_instance_ddl", true);
        }
        Map<String, Object> policy = new LinkedHashMap<>();
        policy.put("default", o.valuePolicies().defaultPolicy() == null ? ValuePolicy.REFUSE.text()
            : o.valuePolicies().defaultPolicy().text());
        Map<String, Object> columns = new TreeMap<>();
        o.valuePolicies().columns().forEach((c, p) -> columns.put(c, p.text()));
        policy.put("columns", columns);
        s.put("value_policy", policy);
        return s;
    }

    private static Map<String, Object> laneConfig(Lane l) {
        return laneConfig(l.schema(), l.table(), l.targetDataset(), l.uniqueKeys(), l.captureInstance());
    }

    /** One table of a multi-table stream's configuration. */
    private static Map<String, Object> laneConfig(String schema, String table, String targetDataset,
                                                  List<String> uniqueKeys, String captureInstance) {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("source_schema", schema);
        t.put("source_table", table);
        t.put("target_dataset", targetDataset);
        t.put("unique_keys", uniqueKeys);
        t.put("capture_instance", captureInstance);
        return t;
    }
}
