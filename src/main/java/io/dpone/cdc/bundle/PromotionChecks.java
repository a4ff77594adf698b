package io.dpone.cdc.bundle;

import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.CdcHashes;
import io.dpone.cdc.bundle.CdcPromotionBundle.Check;
import io.dpone.cdc.bundle.CdcPromotionBundle.ColumnVerdict;
import io.dpone.cdc.bundle.CdcPromotionBundle.Status;
import io.dpone.cdc.mssql.Lsn;
import io.dpone.cdc.mssql.SqlServerCdcReader;
import io.dpone.cdc.mssql.SqlServerChangeTrackingReader;
import io.dpone.cdc.StreamIdentity;
import io.dpone.cdc.clickhouse.ClickHouseCdcSinkApplier;
import io.dpone.cdc.clickhouse.ClickHouseOffsetStore;
import io.dpone.cdc.runtime.ClickHouseCdcAdapters;
import io.dpone.cdc.runtime.CdcMode;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseEndpoints;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.Redactor;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.manifest.ValuePolicy;
import io.dpone.source.ColumnReads;
import io.dpone.source.SourceColumn;
import io.dpone.source.SqlServerDialect;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Builds the {@link CdcPromotionBundle} of one live stream: opens the source alias read-only and checks what the live
 * readers ({@link SqlServerCdcReader}, {@link SqlServerChangeTrackingReader}) will need, with the same catalogue
 * calls they make (JDBC metadata, {@code sys.fn_cdc_get_min_lsn}, {@code CHANGE_TRACKING_CURRENT_VERSION()} and
 * {@code CHANGE_TRACKING_MIN_VALID_VERSION(OBJECT_ID(?))}), so the checks run alike on SQL Server and its emulation:
 * <ol>
 *   <li>{@code stream_options}: the options as {@code cdc-runtime-run --mode live} validates them, the aliases'
 *       types;</li>
 *   <li>{@code source_reachable}: the source alias opens (read-only);</li>
 *   <li>{@code source_table}: the table exists;</li>
 *   <li>{@code capture_enabled}: {@code mssql_cdc}: the capture instance exists ({@code sys.fn_cdc_get_min_lsn} is
 *       not zero) and its change table lists captured columns that the table still has; {@code
 *       mssql_change_tracking}: Change Tracking is on for the database and the table;</li>
 *   <li>{@code unique_keys}: the unique keys are the table's primary key, or (CDC) a unique index, and are
 *       captured;</li>
 *   <li>{@code column_types}: every captured column maps to ClickHouse under the value policy in force (issue 29's
 *       verdicts, {@link ColumnReads}); the declared policies name captured columns;</li>
 *   <li>{@code cleanup_retention} ({@code mssql_cdc}): the capture cleanup job keeps changes at least twice the
 *       stream's tick interval;</li>
 *   <li>{@code sink_reachable}: the sink alias answers;</li>
 *   <li>{@code sink_log} (per table): the CDC log does not exist yet or is this table's (its comment's stream id);</li>
 *   <li>{@code offset_store}: {@code <db>.dpone_cdc_offsets} holds no checkpoint of the pipeline, or this stream's,
 *       readable (read as the tick loads it).</li>
 * </ol>
 * A multi-table stream ({@code --table}) runs {@code source_table} to {@code column_types} once per table, into that
 * table's section ({@link CdcPromotionBundle.TableBundle}); its blockers carry {@code details.table}. Every failed
 * check adds typed blockers; a check whose input failed is {@code skipped}. Nothing is written to the source or the
 * sink.
 */
public final class PromotionChecks {
    /** The checks run once per table, in order. */
    private static final List<String> TABLE_CHECKS = List.of("source_table", "capture_enabled", "unique_keys",
        "column_types");

    private final CdcRunOptions options;
    private final ConnectionContext context;
    private final Function<String, String> sinkReach;
    /** How often the stream is expected to tick ({@code --tick-interval}, a serve schedule); null when unknown. */
    private final java.time.Duration tickInterval;
    /** The stream's checks, blockers and columns (a single-table stream's every check lands here). */
    private final Found stream = new Found();
    /** A multi-table stream's tables, in the stream's order; one lane for a single-table stream. */
    private final List<Lane> lanes = new ArrayList<>();
    /** Where the checks in progress land: {@link #stream}, or the table's section of a multi-table stream. */
    private Found at = stream;
    /** The catalogue read in progress, named in a failure. */
    private String reading = "the table's columns";

    /** What the checks found for the stream or for one of its tables. */
    private static final class Found {
        final List<Check> checks = new ArrayList<>();
        final List<Blocker> blockers = new ArrayList<>();
        final List<ColumnVerdict> verdicts = new ArrayList<>();
    }

    /**
     * One table the stream reads: a single-table stream's one, or one {@code --table} of a multi-table stream.
     *
     * @param keyOption the option that names the keys, as a blocker's subject ({@code --unique-key},
     *                  {@code --table[i].unique_keys})
     * @param found     where this table's checks land ({@link #stream} for a single-table stream)
     */
    private record Lane(String schema, String table, String targetDataset, List<String> uniqueKeys,
                        String captureInstance, String keyOption, Found found) {
        String name() {
            return schema + "." + table;
        }
    }

    /**
     * @param options   the stream, as {@code cdc-runtime-run --mode live} takes it (the mode is forced to live)
     * @param sinkReach the round trip to an alias: null when it answered, else why not, redacted
     *                  ({@code io.dpone.serve.ConnectionReach#reach} in the CLI)
     */
    private PromotionChecks(CdcRunOptions options, ConnectionContext context, Function<String, String> sinkReach,
                            java.time.Duration tickInterval) {
        this.options = options.mode() == CdcMode.live ? options : options.toBuilder().mode(CdcMode.live).build();
        this.context = context;
        this.sinkReach = sinkReach;
        this.tickInterval = tickInterval;
        if (this.options.multiTable()) {
            for (int i = 0; i < this.options.tables().size(); i++) {
                CdcRunOptions.Table t = this.options.tables().get(i);
                lanes.add(new Lane(t.sourceSchema(), t.sourceTable(), t.targetDataset(), t.uniqueKeys(),
                    captureInstance(this.options.backend(), null, t.sourceSchema(), t.sourceTable()),
                    "--table[" + i + "].unique_keys", new Found()));
            }
        } else {
            lanes.add(new Lane(this.options.sourceSchema(), this.options.sourceTable(),
                this.options.targetDataset(), this.options.uniqueKeys(), captureInstance(this.options.backend(),
                this.options.captureInstance(), this.options.sourceSchema(), this.options.sourceTable()),
                "--unique-key", stream));
        }
    }

    /** Runs every check and returns the bundle (never throws a typed failure: it lands in the bundle's blockers). */
    public static CdcPromotionBundle build(CdcRunOptions options, ConnectionContext context,
                                           Function<String, String> sinkReach) {
        return build(options, context, sinkReach, null);
    }

    /**
     * As above; {@code tickInterval} (null when unknown) is how often the stream will tick, which the capture cleanup
     * job's retention must exceed ({@code cleanup_retention}). It is checked, not pinned in the digest.
     */
    public static CdcPromotionBundle build(CdcRunOptions options, ConnectionContext context,
                                           Function<String, String> sinkReach, java.time.Duration tickInterval) {
        return new PromotionChecks(options, context, sinkReach, tickInterval).run();
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
        if (!invalid.isEmpty()) {
            fail("stream_options", "the stream's options are invalid", invalid);
            skip("source_reachable", "the stream's options are invalid");
            skipTables("the stream's options are invalid");
            skip("cleanup_retention", "the stream's options are invalid");
            skip("sink_reachable", "the stream's options are invalid");
            skipSink("the stream's options are invalid");
        } else {
            pass("stream_options", "options valid for cdc-runtime-run --mode live");
            sourceChecks(facts);
            String why = sinkReach.apply(options.sinkConnectionId());
            if (why == null) {
                pass("sink_reachable", "sink alias " + options.sinkConnectionId() + " answered");
                sinkChecks();
            } else {
                fail("sink_reachable", "sink alias " + options.sinkConnectionId() + " did not answer",
                    List.of(Blocker.of(BlockerCode.CDC_BUNDLE_SINK_UNREACHABLE, "--sink-connection-id",
                        "sink alias '" + options.sinkConnectionId() + "' did not answer: " + why)));
                skipSink("the sink did not answer");
            }
        }
        if (!options.multiTable()) {
            Map<String, Object> streamConfig = stream(options, lanes.get(0).captureInstance());
            Map<String, Object> source = facts.get(lanes.get(0).name());
            return new CdcPromotionBundle(CdcPromotionBundle.SCHEMA, stream.blockers.isEmpty(), streamConfig,
                stream.checks, stream.verdicts, source, null, stream.blockers, digest(streamConfig, source));
        }
        Map<String, Object> streamConfig = stream(options, null);
        List<CdcPromotionBundle.TableBundle> tables = new ArrayList<>();
        Map<String, Object> sourceTables = new TreeMap<>();
        List<Blocker> all = new ArrayList<>(stream.blockers);
        for (Lane l : lanes) {
            Map<String, Object> source = facts.get(l.name());
            sourceTables.put(l.name(), source);
            all.addAll(l.found().blockers);
            tables.add(new CdcPromotionBundle.TableBundle(l.name(), l.schema(), l.table(), l.targetDataset(),
                l.uniqueKeys(), l.captureInstance(), l.found().blockers.isEmpty(), l.found().checks,
                l.found().verdicts, source, l.found().blockers, digest(laneConfig(l), source)));
        }
        Map<String, Object> source = new LinkedHashMap<>();
        source.put("backend", options.backend());
        source.put("tables", sourceTables);
        return new CdcPromotionBundle(CdcPromotionBundle.SCHEMA, all.isEmpty(), streamConfig, stream.checks,
            List.of(), source, tables, all, digest(streamConfig, source));
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

    /**
     * The source checks of every table, on one read-only connection; puts each table's source facts (null when the
     * table could not be read) into {@code facts}, by {@code schema.table}.
     */
    private void sourceChecks(Map<String, Map<String, Object>> facts) {
        ConnectionSpec spec;
        Connection c;
        try {
            spec = context.resolve(options.sourceConnectionId(), ConnectionType.MSSQL, "--source-connection-id");
            c = io.dpone.source.SourceConnections.open(spec, "dpone-cdc-bundle");
        } catch (DponeException e) {
            fail("source_reachable", "source alias " + options.sourceConnectionId() + " did not open",
                List.of(Blocker.of(BlockerCode.CDC_BUNDLE_SOURCE_UNREACHABLE, "--source-connection-id",
                    "source alias '" + options.sourceConnectionId() + "' did not open: "
                        + e.blockers().get(0).code() + ": " + e.blockers().get(0).message())));
            skipTables("the source did not open");
            skip("cleanup_retention", "the source did not open");
            return;
        }
        try (c) {
            try {
                c.setReadOnly(true);
            } catch (SQLException e) {
                // a driver that cannot mark the session read-only still reads only: the checks never write
            }
            pass("source_reachable", "source alias " + options.sourceConnectionId() + " opened read-only");
            for (Lane l : lanes) {
                at = l.found();
                facts.put(l.name(), tableChecks(c, l));
                at = stream;
            }
            cleanupRetention(c);
        } catch (SQLException e) {
            // closing the connection failed: every table's checks already ran
        } catch (RuntimeException e) {
            at = stream;
            fail("source_catalogue", "the source's catalogue could not be read", List.of(Blocker.of(
                BlockerCode.SOURCE_READ_FAILED, "--source-connection-id", Redactor.global().describe(e))));
        } finally {
            at = stream;
        }
    }

    /**
     * {@code cleanup_retention} ({@code mssql_cdc}): the capture cleanup job of the database
     * ({@code msdb.dbo.cdc_jobs}, {@code job_type = 'cleanup'}) keeps changes at least twice the stream's tick
     * interval, so a tick that is late once still finds every change it had not read. Skipped when the source alias
     * cannot read {@code msdb.dbo.cdc_jobs}; passed without a comparison when the interval is unknown.
     */
    private void cleanupRetention(Connection c) {
        if (!SqlServerCdcReader.BACKEND.equals(options.backend())) {
            skip("cleanup_retention", "Change Tracking keeps changes for the database's CHANGE_RETENTION: not "
                + "checked yet");
            return;
        }
        Long minutes = null;
        try (PreparedStatement st = c.prepareStatement("SELECT retention FROM msdb.dbo.cdc_jobs WHERE database_id = "
            + "DB_ID() AND job_type = N'cleanup'"); ResultSet rs = st.executeQuery()) {
            if (rs.next()) {
                minutes = rs.getLong(1);
            }
        } catch (SQLException e) {
            skip("cleanup_retention", "msdb.dbo.cdc_jobs is not readable by the source alias (SQLState "
                + e.getSQLState() + "): the cleanup job's retention is not checked; grant SELECT on it to check it");
            return;
        }
        if (minutes == null) {
            pass("cleanup_retention", "no CDC cleanup job for this database: captured changes are not cleaned up");
            return;
        }
        if (tickInterval == null) {
            pass("cleanup_retention", "the cleanup job keeps changes " + minutes + " minute(s); no tick interval "
                + "given (--tick-interval): not compared");
            return;
        }
        java.time.Duration retention = java.time.Duration.ofMinutes(minutes);
        if (retention.compareTo(tickInterval.multipliedBy(2)) >= 0) {
            pass("cleanup_retention", "the cleanup job keeps changes " + minutes + " minute(s), at least twice the "
                + "tick interval " + tickInterval);
            return;
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("retention_minutes", minutes);
        details.put("tick_interval_seconds", tickInterval.toSeconds());
        fail("cleanup_retention", "the cleanup job keeps changes " + minutes + " minute(s), less than twice the tick "
            + "interval " + tickInterval, List.of(Blocker.of(BlockerCode.CDC_BUNDLE_RETENTION_TOO_SHORT,
                "cleanup_retention", "the capture cleanup job keeps changes " + minutes + " minute(s), less than twice "
                    + "the stream's tick interval " + tickInterval + ": a tick late once may find changes it had not "
                    + "read cleaned up (cdc_runtime.cdc_resync_required); raise the job's retention "
                    + "(sys.sp_cdc_change_job @job_type = N'cleanup', @retention = MINUTES) or tick more often",
                details)));
    }

    /** One table's source checks; returns its source facts, or null when the table could not be read. */
    private Map<String, Object> tableChecks(Connection c, Lane l) {
        try {
            return sourceFacts(c, l);
        } catch (SQLException e) {
            fail("source_catalogue", "the source's catalogue could not be read", List.of(Blocker.of(
                BlockerCode.SOURCE_READ_FAILED, "source." + l.name(), "cannot read the catalogue of " + l.name()
                    + " (" + reading + ", SQLState " + e.getSQLState() + ")")));
            return null;
        } catch (RuntimeException e) {
            fail("source_catalogue", "the source's catalogue could not be read", List.of(Blocker.of(
                BlockerCode.SOURCE_READ_FAILED, "source." + l.name(), Redactor.global().describe(e))));
            return null;
        }
    }

    /**
     * The sink checks, read-only: each table's CDC log ({@code sink_log}: absent, or this table's log by its comment)
     * and the stream's offset store ({@code offset_store}: absent, or its checkpoint row readable and this stream's).
     */
    private void sinkChecks() {
        ClickHouseEndpoint ch;
        try {
            ch = ClickHouseEndpoints.open(context.resolve(options.sinkConnectionId(), ConnectionType.CLICKHOUSE,
                "--sink-connection-id"));
        } catch (DponeException e) {
            fail("offset_store", "sink alias " + options.sinkConnectionId() + " did not open", List.of(Blocker.of(
                BlockerCode.CDC_BUNDLE_SINK_UNREACHABLE, "--sink-connection-id", "sink alias '"
                    + options.sinkConnectionId() + "' did not open: " + e.blockers().get(0).code())));
            return;
        } catch (RuntimeException e) {
            fail("offset_store", "sink alias " + options.sinkConnectionId() + " did not open", List.of(Blocker.of(
                BlockerCode.CDC_BUNDLE_SINK_UNREACHABLE, "--sink-connection-id", "sink alias '"
                    + options.sinkConnectionId() + "' did not open: " + Redactor.global().describe(e))));
            return;
        }
        try (ch) {
            for (Lane l : lanes) {
                at = l.found();
                sinkLog(ch, l);
                at = stream;
            }
            offsetStore(ch);
        } catch (RuntimeException e) {
            fail("sink_catalogue", "the sink's catalogue could not be read", List.of(Blocker.of(
                BlockerCode.CDC_BUNDLE_SINK_UNREACHABLE, "--sink-connection-id", Redactor.global().describe(e))));
        } finally {
            at = stream;
        }
    }

    /** {@code sink_log}: the table's log does not exist yet (the first tick creates it) or is this table's. */
    private void sinkLog(ClickHouseEndpoint ch, Lane l) {
        String[] dataset = l.targetDataset().split("\\.", 2);
        var table = ch.operations().table(dataset[0], dataset[1]);
        if (table.isEmpty()) {
            pass("sink_log", l.targetDataset() + " does not exist yet: the first tick that reads a change creates it");
            return;
        }
        StreamIdentity identity = new StreamIdentity(options.pipelineName(), options.backend(), l.schema(),
            l.table(), l.targetDataset(), l.uniqueKeys());
        // the comment ClickHouseCdcSinkApplier writes on a log it creates, and checks before every apply
        String expected = ClickHouseCdcSinkApplier.LOG_SCHEMA + " stream_id=" + identity.streamId();
        String comment = table.get().comment() == null ? "" : table.get().comment();
        if (comment.equals(expected)) {
            pass("sink_log", l.targetDataset() + " is the CDC log of " + l.name() + " in this stream");
            return;
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("target_dataset", l.targetDataset());
        details.put("stream_id", identity.streamId());
        String other = comment.startsWith(ClickHouseCdcSinkApplier.LOG_SCHEMA + " stream_id=")
            ? "the CDC log of another stream (pipeline, backend, table or keys differ)" : "not a dpone CDC log";
        fail("sink_log", l.targetDataset() + " is " + other, List.of(Blocker.of(
            BlockerCode.CDC_BUNDLE_SINK_LOG_MISMATCH, options.multiTable() ? l.keyOption().replace(".unique_keys",
                ".target_dataset") : "--target-dataset", l.targetDataset() + " exists and is " + other + ": a tick "
                + "would apply nothing to it; name another log, or drop it if it is an abandoned stream's",
            details)));
    }

    /** {@code offset_store}: no checkpoint yet, or the stream's checkpoint row reads and belongs to this stream. */
    private void offsetStore(ClickHouseEndpoint ch) {
        String where = options.targetDatabase() + "." + ClickHouseCdcAdapters.OFFSETS_TABLE;
        try {
            var offset = new ClickHouseOffsetStore(ch, options.targetDatabase(), ClickHouseCdcAdapters.OFFSETS_TABLE)
                .load(options.stream());
            pass("offset_store", offset.isEmpty() ? where + " holds no checkpoint of pipeline "
                + options.pipelineName() + ": the first tick reads from the start of each capture"
                : where + " holds this stream's checkpoint (" + offset.get().backend() + " " + offset.get().token()
                    + ")");
        } catch (DponeException e) {
            fail("offset_store", where + " holds a checkpoint the tick would refuse", e.blockers());
        }
    }

    private void skipSink(String why) {
        for (Lane l : lanes) {
            at = l.found();
            skip("sink_log", why);
        }
        at = stream;
        skip("offset_store", why);
    }

    /** Every table's checks skipped, each in its table's section. */
    private void skipTables(String why) {
        for (Lane l : lanes) {
            at = l.found();
            TABLE_CHECKS.forEach(id -> skip(id, why));
        }
        at = stream;
    }

    /** One column as JDBC metadata describes it. */
    private record Meta(String name, int jdbcType, String typeName, int size, int scale, boolean nullable) {
        ColumnReads.Described described() {
            return new ColumnReads.Described(name, jdbcType, typeName, size, scale, nullable, false);
        }

        Map<String, Object> fact() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", name);
            m.put("type", typeName == null ? "" : typeName.toLowerCase(Locale.ROOT));
            m.put("jdbc_type", jdbcType);
            m.put("size", size);
            m.put("scale", scale);
            m.put("nullable", nullable);
            return m;
        }
    }

    private Map<String, Object> sourceFacts(Connection c, Lane l) throws SQLException {
        String schema = l.schema();
        String table = l.table();
        String where = l.name();
        DatabaseMetaData md = c.getMetaData();
        reading = "the table's columns";
        List<Meta> tableColumns = columns(md, schema, table);
        if (tableColumns.isEmpty()) {
            fail("source_table", where + " does not exist or is not visible to the source alias",
                List.of(Blocker.of(BlockerCode.SOURCE_TABLE_MISSING, "source." + where, where
                    + " does not exist (or the source alias cannot see it)")));
            for (String id : List.of("capture_enabled", "unique_keys", "column_types")) {
                skip(id, "the table does not exist");
            }
            return null;
        }
        pass("source_table", where + " has " + tableColumns.size() + " columns");
        reading = "the table's primary key";
        List<String> primaryKey = primaryKey(md, schema, table);
        String ci = l.captureInstance();
        List<Meta> captured = SqlServerCdcReader.BACKEND.equals(options.backend())
            ? cdcCaptured(c, md, l, tableColumns) : ctCaptured(c, l, tableColumns, primaryKey);
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("backend", options.backend());
        facts.put("capture_instance", ci);
        facts.put("primary_key", primaryKey);
        facts.put("unique_keys", l.uniqueKeys());
        facts.put("captured_columns", captured == null ? null : captured.stream().map(Meta::fact).toList());
        // capture off: the keys and the types are still checked, on the table's columns, so that every blocker
        // shows at once
        uniqueKeys(md, l, primaryKey, captured);
        columnTypes(l, captured == null ? tableColumns : captured);
        return facts;
    }

    /** The captured columns of the capture instance, typed as the table declares them; null when CDC is off. */
    private List<Meta> cdcCaptured(Connection c, DatabaseMetaData md, Lane l, List<Meta> tableColumns)
        throws SQLException {
        String ci = l.captureInstance();
        String subject = "source.cdc." + ci;
        Lsn min;
        try (PreparedStatement st = c.prepareStatement("SELECT sys.fn_cdc_get_min_lsn(?)")) {
            st.setString(1, ci);
            try (ResultSet rs = st.executeQuery()) {
                byte[] b = rs.next() ? rs.getBytes(1) : null;
                min = b == null ? null : Lsn.of(b);
            }
        } catch (SQLException e) {
            // no sys.fn_cdc_* function: CDC was never enabled on this database
            min = null;
        }
        if (min == null || min.isZero()) {
            fail("capture_enabled", "capture instance " + ci + " does not exist", List.of(CdcBlockers.blocker(
                CdcBlockers.SOURCE_NOT_ENABLED, subject, "capture instance " + ci + " does not exist "
                    + "(sys.fn_cdc_get_min_lsn returned 0x00): enable CDC on the database (sys.sp_cdc_enable_db) and on "
                    + l.name() + " (sys.sp_cdc_enable_table)" + (options.multiTable() ? ""
                    : ", or pass its --capture-instance"))));
            return null;
        }
        reading = "the change table's columns";
        List<Meta> changeTable = columns(md, "cdc", ci + "_CT");
        if (changeTable.isEmpty()) {
            fail("capture_enabled", "the change table of " + ci + " is not readable", List.of(CdcBlockers.blocker(
                CdcBlockers.SOURCE_NOT_ENABLED, subject, "the change table of capture instance " + ci
                    + " is not readable by the source alias (grant SELECT on the cdc schema or the capture "
                    + "instance's gating role)")));
            return null;
        }
        List<Meta> captured = new ArrayList<>();
        List<Blocker> gone = new ArrayList<>();
        for (Meta m : changeTable) {
            Optional<Meta> inTable = tableColumns.stream().filter(t -> t.name().equalsIgnoreCase(m.name())).findFirst();
            if (inTable.isEmpty()) {
                gone.add(CdcBlockers.blocker(CdcBlockers.SCHEMA_CHANGED, "source.columns." + m.name(),
                    "captured column " + m.name() + " of " + ci + " is no longer a column of " + l.name()
                        + "; create a capture instance for the table's current shape (docs/cdc.md, \"Schema "
                        + "changes\")"));
            } else {
                captured.add(inTable.get());
            }
        }
        if (!gone.isEmpty()) {
            fail("capture_enabled", "capture instance " + ci + " captures columns the table no longer has", gone);
            return null;
        }
        pass("capture_enabled", "capture instance " + ci + " exists (min LSN " + min.hex() + "), capturing "
            + captured.size() + " columns");
        return captured;
    }

    /** Every column of the table when Change Tracking is on for the database and the table; else null. */
    private List<Meta> ctCaptured(Connection c, Lane l, List<Meta> tableColumns, List<String> primaryKey) {
        String name = l.name();
        String subject = "source.change_tracking." + name;
        Long current = scalar(c, "SELECT CHANGE_TRACKING_CURRENT_VERSION()", null);
        Long minValid = current == null ? null : scalar(c, "SELECT CHANGE_TRACKING_MIN_VALID_VERSION(OBJECT_ID(?))",
            SqlServerDialect.quote(l.schema()) + "." + SqlServerDialect.quote(l.table()));
        if (current == null || minValid == null) {
            fail("capture_enabled", "Change Tracking is off for " + (current == null ? "the database" : name),
                List.of(CdcBlockers.blocker(CdcBlockers.SOURCE_NOT_ENABLED, subject, "Change Tracking is not "
                    + "enabled for " + (current == null ? "the database (ALTER DATABASE ... SET CHANGE_TRACKING = ON)"
                    : name + " (ALTER TABLE ... ENABLE CHANGE_TRACKING)") + "; or use --backend mssql_cdc")));
            return null;
        }
        if (primaryKey.isEmpty()) {
            fail("capture_enabled", name + " has no primary key", List.of(CdcBlockers.blocker(
                CdcBlockers.SOURCE_NOT_ENABLED, subject, name + " has no primary key (Change Tracking needs one)")));
            return null;
        }
        pass("capture_enabled", "Change Tracking is on for " + name + " (current version " + current
            + ", min valid version " + minValid + ")");
        return tableColumns;
    }

    /** The value of a one-cell query, null when it is NULL or the function does not exist. */
    private static Long scalar(Connection c, String sql, String parameter) {
        try (PreparedStatement st = c.prepareStatement(sql)) {
            if (parameter != null) {
                st.setString(1, parameter);
            }
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                long v = rs.getLong(1);
                return rs.wasNull() ? null : v;
            }
        } catch (SQLException e) {
            return null;
        }
    }

    /** {@code captured}: null when capture is off (the keys are then checked against the table only). */
    private void uniqueKeys(DatabaseMetaData md, Lane l, List<String> primaryKey, List<Meta> captured)
        throws SQLException {
        String schema = l.schema();
        String table = l.table();
        List<Blocker> found = new ArrayList<>();
        Set<String> keys = lower(l.uniqueKeys());
        boolean ct = SqlServerChangeTrackingReader.BACKEND.equals(options.backend());
        String match = null;
        if (keys.equals(lower(primaryKey))) {
            match = "the primary key " + primaryKey;
        } else if (!ct) {
            reading = "the table's unique indexes";
            for (var e : uniqueIndexes(md, schema, table).entrySet()) {
                if (keys.equals(lower(e.getValue()))) {
                    match = "unique index " + e.getKey() + " " + e.getValue();
                    break;
                }
            }
        }
        if (match == null) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("unique_keys", l.uniqueKeys());
            details.put("primary_key", primaryKey);
            found.add(Blocker.of(BlockerCode.CDC_BUNDLE_UNIQUE_KEY_MISMATCH, l.keyOption(), l.keyOption() + " "
                + l.uniqueKeys() + " is not the primary key " + primaryKey + " of " + schema + "." + table
                + (ct ? " (Change Tracking keys rows by the primary key)" : " nor a unique index of it")
                + ": a stream keyed by columns that are not unique can merge two rows", details));
        }
        Set<String> capturedNames = captured == null ? Set.of()
            : lower(captured.stream().map(Meta::name).toList());
        for (String k : l.uniqueKeys()) {
            if (captured != null && !capturedNames.contains(k.toLowerCase(Locale.ROOT))) {
                found.add(Blocker.of(BlockerCode.CDC_BUNDLE_UNIQUE_KEY_NOT_CAPTURED, l.keyOption(),
                    "unique-key column " + k + " is not captured by "
                        + (ct ? schema + "." + table : "capture instance " + l.captureInstance())));
            }
        }
        if (found.isEmpty()) {
            pass("unique_keys", l.keyOption() + " " + l.uniqueKeys() + " is " + match
                + (captured == null ? " (capture not enabled: not checked against captured columns)" : ", captured"));
        } else {
            fail("unique_keys", "the unique keys do not key the table's captured rows", found);
        }
    }

    private void columnTypes(Lane l, List<Meta> captured) {
        String where = l.name();
        List<Blocker> found = new ArrayList<>();
        for (Meta m : captured) {
            boolean key = l.uniqueKeys().stream().anyMatch(k -> k.equalsIgnoreCase(m.name()));
            ColumnReads.Described d = m.described();
            ValuePolicy policy = ColumnReads.policyInForce(options.valuePolicies(), d, key);
            ColumnReads.Result read = ColumnReads.read(d, policy, where + "." + m.name(),
                "value_policy.columns." + m.name(), null);
            String type = m.typeName() == null ? "" : m.typeName().toLowerCase(Locale.ROOT);
            if (read.refusal() != null) {
                found.add(read.refusal());
                at.verdicts.add(new ColumnVerdict(m.name(), type, m.nullable(), key, "refused", List.of(),
                    policy.text(), read.refusal().code()));
                continue;
            }
            List<Map<String, String>> ch = new ArrayList<>();
            boolean converted = false;
            for (SourceColumn sc : read.columns()) {
                ch.add(Map.of("name", sc.name(), "type", sc.clickHouseType()));
                converted |= sc.readSql() != null;
            }
            if (key && converted) {
                found.add(CdcBlockers.blocker(CdcBlockers.INVALID_ARGUMENT, l.keyOption(), "unique-key column "
                    + m.name() + " is read through a conversion (hierarchyid, geography, geometry): it cannot key "
                    + "a stream; key it by another unique column"));
            }
            at.verdicts.add(new ColumnVerdict(m.name(), type, m.nullable(), key, converted ? "converted" : "mapped", ch,
                policy.text(), null));
        }
        for (var e : options.valuePolicies().columns().entrySet()) {
            String path = "value_policy.columns." + e.getKey();
            boolean key = l.uniqueKeys().stream().anyMatch(k -> k.equalsIgnoreCase(e.getKey()));
            if (captured.stream().noneMatch(m -> m.name().equalsIgnoreCase(e.getKey()))) {
                found.add(CdcBlockers.blocker(CdcBlockers.INVALID_ARGUMENT, path, "column '" + e.getKey()
                    + "' is not a captured column of " + where));
            } else if (key && (e.getValue() == ValuePolicy.CLAMP || e.getValue() == ValuePolicy.NULL)) {
                found.add(CdcBlockers.blocker(CdcBlockers.INVALID_ARGUMENT, path, e.getValue().text()
                    + " cannot apply to unique-key column " + e.getKey() + " of " + where
                    + ": a changed key could merge two rows"));
            }
        }
        if (found.isEmpty()) {
            pass("column_types", captured.size() + " captured columns map to ClickHouse under their value policies");
        } else {
            fail("column_types", found.size() + " column or policy problem(s)", found);
        }
    }

    /** The columns of {@code schema.table} in table order, CDC metadata columns ({@code __$...}) left out. */
    private static List<Meta> columns(DatabaseMetaData md, String schema, String table) throws SQLException {
        List<Meta> out = new ArrayList<>();
        try (ResultSet rs = md.getColumns(null, schema, table, null)) {
            while (rs.next()) {
                // getColumns takes LIKE patterns: '_' also matches other tables
                if (!table.equalsIgnoreCase(rs.getString("TABLE_NAME"))
                    || !schema.equalsIgnoreCase(rs.getString("TABLE_SCHEM"))) {
                    continue;
                }
                String name = rs.getString("COLUMN_NAME");
                if (name.startsWith("__$")) {
                    continue;
                }
                out.add(new Meta(name, rs.getInt("DATA_TYPE"), rs.getString("TYPE_NAME"), rs.getInt("COLUMN_SIZE"),
                    rs.getInt("DECIMAL_DIGITS"), rs.getInt("NULLABLE") != DatabaseMetaData.columnNoNulls));
            }
        }
        return out;
    }

    private static List<String> primaryKey(DatabaseMetaData md, String schema, String table) throws SQLException {
        Map<Integer, String> pk = new TreeMap<>();
        try (ResultSet rs = md.getPrimaryKeys(null, schema, table)) {
            while (rs.next()) {
                if (table.equalsIgnoreCase(rs.getString("TABLE_NAME"))
                    && schema.equalsIgnoreCase(rs.getString("TABLE_SCHEM"))) {
                    pk.put(rs.getInt("KEY_SEQ"), rs.getString("COLUMN_NAME"));
                }
            }
        }
        return new ArrayList<>(pk.values());
    }

    /** The unique indexes of the table: name to columns in key order (indexes with a filter are not told apart). */
    private static Map<String, List<String>> uniqueIndexes(DatabaseMetaData md, String schema, String table)
        throws SQLException {
        Map<String, TreeMap<Integer, String>> out = new TreeMap<>();
        try (ResultSet rs = md.getIndexInfo(null, schema, table, true, false)) {
            while (rs.next()) {
                String index = rs.getString("INDEX_NAME");
                String column = rs.getString("COLUMN_NAME");
                if (index == null || column == null || rs.getBoolean("NON_UNIQUE")
                    || !table.equalsIgnoreCase(rs.getString("TABLE_NAME"))) {
                    continue;
                }
                out.computeIfAbsent(index, k -> new TreeMap<>()).put((int) rs.getShort("ORDINAL_POSITION"), column);
            }
        }
        Map<String, List<String>> lists = new TreeMap<>();
        out.forEach((k, v) -> lists.put(k, new ArrayList<>(v.values())));
        return lists;
    }

    private static Set<String> lower(List<String> names) {
        Set<String> out = new LinkedHashSet<>();
        names.forEach(n -> out.add(n.toLowerCase(Locale.ROOT)));
        return out;
    }

    private void pass(String id, String detail) {
        at.checks.add(new Check(id, Status.passed, detail));
    }

    private void skip(String id, String why) {
        at.checks.add(new Check(id, Status.skipped, why));
    }

    /** A failed check and its blockers; in a multi-table stream's table, each blocker names the table. */
    private void fail(String id, String detail, List<Blocker> found) {
        at.checks.add(new Check(id, Status.failed, detail));
        if (at == stream) {
            at.blockers.addAll(found);
            return;
        }
        String table = lanes.stream().filter(l -> l.found() == at).findFirst().orElseThrow().name();
        for (Blocker b : found) {
            Map<String, Object> details = new LinkedHashMap<>(b.details());
            details.putIfAbsent("table", table);
            at.blockers.add(new Blocker(b.code(), b.subject(), b.message(), details));
        }
    }
}
