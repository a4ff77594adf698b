package io.dpone.cdc.runtime;

import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.StreamIdentity;
import io.dpone.error.Blocker;
import io.dpone.manifest.ValuePolicies;
import io.dpone.manifest.ValuePolicy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The inputs of one {@code dpone ops cdc-runtime-run} tick (one field per CLI option), built with {@link #builder}.
 * {@code captureInstance} (live {@code mssql_cdc} only; default {@code <schema>_<table>}) and {@code maxEvents}
 * (default {@link CdcTick#DEFAULT_MAX_EVENTS}) may be null; {@code valuePolicies} (live only: what a reader does with
 * a value ClickHouse cannot hold, as a manifest's {@code source.value_policy}) defaults to refusing; {@code retry} (the
 * tick's transient-fault retry budget, the shape of a manifest's {@code retry:} block) defaults to
 * {@link io.dpone.retry.RetrySettings#DEFAULT}. {@code allowCaptureInstanceDdl} ({@code --allow-capture-instance-ddl},
 * live {@code mssql_cdc} only): the reader may create a table's second capture instance when the one it reads no
 * longer matches the table (docs/cdc.md, "Schema changes").
 */
public record CdcRunOptions(CdcMode mode, String source, String sink, String backend, String pipelineName,
                            String sourceSchema, String sourceTable, String targetDataset, List<String> uniqueKeys,
                            Path eventsJson, Path checkpointJson, Path outputDir, String sourceConnectionId,
                            String sinkConnectionId, String credentialsSource, String captureInstance,
                            Integer maxEvents, ValuePolicies valuePolicies, List<Table> tables,
                            io.dpone.retry.RetrySettings retry, TableSelection selection,
                            boolean allowCaptureInstanceDdl) {
    /** Live backends: SQL Server CDC change tables and SQL Server Change Tracking. */
    public static final List<String> LIVE_BACKENDS = List.of("mssql_cdc", "mssql_change_tracking");
    public static final int MAX_EVENTS_LIMIT = 1_000_000;
    public static final Pattern IDENTIFIER = io.dpone.manifest.Identifier.PATTERN;
    /** Pipeline names and connection ids may also hold {@code -} and {@code .} ({@code orders-cdc}). */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,127}");

    public CdcRunOptions {
        mode = mode == null ? CdcMode.local : mode;
        uniqueKeys = uniqueKeys == null ? List.of() : List.copyOf(uniqueKeys);
        valuePolicies = valuePolicies == null ? ValuePolicies.NONE : valuePolicies;
        tables = tables == null ? List.of() : List.copyOf(tables);
        retry = retry == null ? io.dpone.retry.RetrySettings.DEFAULT : retry;
    }

    /** The most tables one stream names. */
    public static final int MAX_TABLES = 256;

    /**
     * The tables of a multi-table stream chosen by patterns ({@code --include-table}, {@code --exclude-table},
     * {@code --target-template}; a serve stream's {@code include}, {@code exclude}, {@code target_template}), resolved
     * against the source's capture instances on every tick ({@link TableSelections}): a matched table's unique keys
     * are its primary key, its CDC log is {@code targetTemplate} with {@code {schema}} and {@code {table}} replaced.
     */
    public record TableSelection(List<String> include, List<String> exclude, String targetTemplate) {
        /** A template without a dot names the database only: {@code DB} is {@code DB.{schema}_{table}_cdc}. */
        public TableSelection {
            include = include == null ? List.of() : List.copyOf(include);
            exclude = exclude == null ? List.of() : List.copyOf(exclude);
            if (targetTemplate != null && !targetTemplate.isEmpty() && !targetTemplate.contains(".")) {
                targetTemplate = targetTemplate + "." + TableSelections.DEFAULT_NAME;
            }
        }
    }

    /**
     * One table of a multi-table stream ({@code --table SCHEMA.TABLE=DB.TABLE:KEY[,KEY...]}, a serve stream's
     * {@code tables[]}, or a table an include pattern matched): its source table, its own CDC log, its unique keys
     * and its capture instance (null: SQL Server's default {@code <schema>_<table>}).
     */
    public record Table(String sourceSchema, String sourceTable, String targetDataset, List<String> uniqueKeys,
                        String captureInstance) {
        public Table {
            uniqueKeys = uniqueKeys == null ? List.of() : List.copyOf(uniqueKeys);
        }

        public Table(String sourceSchema, String sourceTable, String targetDataset, List<String> uniqueKeys) {
            this(sourceSchema, sourceTable, targetDataset, uniqueKeys, null);
        }

        /**
         * Parses {@code SCHEMA.TABLE=DB.TABLE:KEY[,KEY...]} ({@code dbo.orders=analytics.orders_cdc:order_id});
         * the parts are checked by {@link CdcRunOptions#validate()}.
         *
         * @throws IllegalArgumentException when the text does not have that shape
         */
        public static Table parse(String spec) {
            java.util.regex.Matcher m = Pattern.compile("([^.=:]+)\\.([^.=:]+)=([^=:]+):([^=:]+)").matcher(spec);
            if (!m.matches()) {
                throw new IllegalArgumentException("--table must be SCHEMA.TABLE=DB.TABLE:KEY[,KEY...], e.g. "
                    + "dbo.orders=analytics.orders_cdc:order_id");
            }
            return new Table(m.group(1), m.group(2), m.group(3), List.of(m.group(4).split(",", -1)));
        }

        StreamIdentity identity(String pipelineName, String backend) {
            return new StreamIdentity(pipelineName, backend, sourceSchema, sourceTable, targetDataset, uniqueKeys);
        }
    }

    /** True when the stream names several tables ({@code --table}) or selects them by patterns. */
    public boolean multiTable() {
        return !tables.isEmpty() || selection != null;
    }

    /** True when the tables are chosen by patterns and not resolved yet (no table named). */
    public boolean unresolved() {
        return selection != null && tables.isEmpty();
    }

    /** The CDC logs the stream writes: {@code --target-dataset}, or each table's. */
    public List<String> targetDatasets() {
        if (unresolved()) {
            return List.of(selection.targetTemplate()); // the logs the patterns will name
        }
        return multiTable() ? tables.stream().map(Table::targetDataset).toList()
            : java.util.Collections.singletonList(targetDataset);
    }

    /**
     * The database of the offset table: the target dataset's (the first table's, for a multi-table stream; the
     * target template's, for a stream whose tables are chosen by patterns).
     */
    public String targetDatabase() {
        String dataset = selection != null ? selection.targetTemplate()
            : multiTable() ? tables.get(0).targetDataset() : targetDataset;
        return dataset.substring(0, dataset.indexOf('.'));
    }

    /** Options of a tick in {@code mode}; every other value unset until named. */
    public static Builder builder(CdcMode mode) {
        return new Builder().mode(mode);
    }

    /** A builder holding these options, to change some of them. */
    public Builder toBuilder() {
        return new Builder().mode(mode).source(source).sink(sink).backend(backend).pipelineName(pipelineName)
            .sourceTable(sourceSchema, sourceTable).targetDataset(targetDataset).uniqueKeys(uniqueKeys)
            .eventsJson(eventsJson).checkpointJson(checkpointJson).outputDir(outputDir)
            .sourceConnectionId(sourceConnectionId).sinkConnectionId(sinkConnectionId)
            .credentialsSource(credentialsSource).captureInstance(captureInstance).maxEvents(maxEvents)
            .valuePolicies(valuePolicies).tables(tables).retry(retry).selection(selection)
            .allowCaptureInstanceDdl(allowCaptureInstanceDdl);
    }

    /**
     * Names the options one by one, so that a call site reads as the command line it stands for (the record has
     * eighteen slots; positional construction hid which null was which).
     */
    public static final class Builder {
        private CdcMode mode;
        private String source;
        private String sink;
        private String backend;
        private String pipelineName;
        private String sourceSchema;
        private String sourceTable;
        private String targetDataset;
        private List<String> uniqueKeys = List.of();
        private Path eventsJson;
        private Path checkpointJson;
        private Path outputDir;
        private String sourceConnectionId;
        private String sinkConnectionId;
        private String credentialsSource;
        private String captureInstance;
        private Integer maxEvents;
        private ValuePolicies valuePolicies = ValuePolicies.NONE;
        private List<Table> tables = List.of();
        private io.dpone.retry.RetrySettings retry;
        private TableSelection selection;
        private boolean allowCaptureInstanceDdl;

        private Builder() {
        }

        public Builder mode(CdcMode v) {
            mode = v;
            return this;
        }

        /** {@code --source} and {@code --sink}: the system names ({@code mssql}, {@code clickhouse}). */
        public Builder systems(String sourceSystem, String sinkSystem) {
            return source(sourceSystem).sink(sinkSystem);
        }

        public Builder source(String v) {
            source = v;
            return this;
        }

        public Builder sink(String v) {
            sink = v;
            return this;
        }

        public Builder backend(String v) {
            backend = v;
            return this;
        }

        public Builder pipelineName(String v) {
            pipelineName = v;
            return this;
        }

        /** {@code --source-schema} and {@code --source-table}. */
        public Builder sourceTable(String schema, String table) {
            sourceSchema = schema;
            sourceTable = table;
            return this;
        }

        public Builder targetDataset(String v) {
            targetDataset = v;
            return this;
        }

        public Builder uniqueKeys(List<String> v) {
            uniqueKeys = v;
            return this;
        }

        public Builder eventsJson(Path v) {
            eventsJson = v;
            return this;
        }

        public Builder checkpointJson(Path v) {
            checkpointJson = v;
            return this;
        }

        public Builder outputDir(Path v) {
            outputDir = v;
            return this;
        }

        /** {@code --source-connection-id} and {@code --sink-connection-id} (live mode). */
        public Builder connections(String sourceId, String sinkId) {
            sourceConnectionId = sourceId;
            sinkConnectionId = sinkId;
            return this;
        }

        public Builder sourceConnectionId(String v) {
            sourceConnectionId = v;
            return this;
        }

        public Builder sinkConnectionId(String v) {
            sinkConnectionId = v;
            return this;
        }

        public Builder credentialsSource(String v) {
            credentialsSource = v;
            return this;
        }

        public Builder captureInstance(String v) {
            captureInstance = v;
            return this;
        }

        public Builder maxEvents(Integer v) {
            maxEvents = v;
            return this;
        }

        public Builder valuePolicies(ValuePolicies v) {
            valuePolicies = v;
            return this;
        }

        /** {@code --table} (repeatable): the tables of a multi-table stream, in the stream's order. */
        public Builder tables(List<Table> v) {
            tables = v;
            return this;
        }

        /**
         * The tick's retry budget ({@code --max-retries} and the other retry flags, a serve stream's {@code retry:});
         * null: {@link io.dpone.retry.RetrySettings#DEFAULT}.
         */
        public Builder retry(io.dpone.retry.RetrySettings v) {
            retry = v;
            return this;
        }

        /** {@code --include-table}, {@code --exclude-table}, {@code --target-template}; null when not given. */
        public Builder selection(TableSelection v) {
            selection = v;
            return this;
        }

        /**
         * {@code --allow-capture-instance-ddl} (a serve stream's {@code allow_capture_instance_ddl}): the live
         * {@code mssql_cdc} reader may create a table's second capture instance itself.
         */
        public Builder allowCaptureInstanceDdl(boolean v) {
            allowCaptureInstanceDdl = v;
            return this;
        }

        public CdcRunOptions build() {
            return new CdcRunOptions(mode, source, sink, backend, pipelineName, sourceSchema, sourceTable,
                targetDataset, uniqueKeys, eventsJson, checkpointJson, outputDir, sourceConnectionId,
                sinkConnectionId, credentialsSource, captureInstance, maxEvents, valuePolicies, tables, retry,
                selection, allowCaptureInstanceDdl);
        }
    }

    /** The batch bound of a tick. */
    public int batchSize() {
        return maxEvents == null ? CdcTick.DEFAULT_MAX_EVENTS : maxEvents;
    }

    public StreamIdentity stream() {
        if (unresolved()) {
            throw new IllegalStateException("the stream's table patterns are resolved against the source first");
        }
        if (multiTable()) {
            return StreamIdentity.multi(pipelineName, backend,
                tables.stream().map(t -> t.identity(pipelineName, backend)).toList());
        }
        return new StreamIdentity(pipelineName, backend, sourceSchema, sourceTable, targetDataset, uniqueKeys);
    }

    /** Every problem with the values, before any side effect (an empty list means the tick may run). */
    public List<Blocker> validate() {
        List<Blocker> out = new ArrayList<>();
        identifier(out, "--source", source);
        identifier(out, "--sink", sink);
        identifier(out, "--backend", backend);
        name(out, "--pipeline-name", pipelineName);
        if (multiTable()) {
            validateTables(out);
        } else {
            identifier(out, "--source-schema", sourceSchema);
            identifier(out, "--source-table", sourceTable);
            dataset(out, "--target-dataset", targetDataset);
            keys(out, "--unique-key", uniqueKeys);
        }
        if (credentialsSource != null && !credentialsSource.equals("env") && !credentialsSource.equals("file")) {
            out.add(invalid("--credentials-source", "--credentials-source must be env or file"));
        }
        if (sourceConnectionId != null) {
            name(out, "--source-connection-id", sourceConnectionId);
        }
        if (sinkConnectionId != null) {
            name(out, "--sink-connection-id", sinkConnectionId);
        }
        if (mode == CdcMode.local) {
            required(out, "--events-json", eventsJson);
            required(out, "--checkpoint-json", checkpointJson);
            required(out, "--output-dir", outputDir);
            if (sourceConnectionId != null) {
                out.add(invalid("--source-connection-id", "--mode local reads --events-json; "
                    + "--source-connection-id is for --mode live"));
            }
            if (captureInstance != null) {
                out.add(invalid("--capture-instance", "--capture-instance is for --mode live"));
            }
            if (allowCaptureInstanceDdl) {
                out.add(invalid("--allow-capture-instance-ddl", "--allow-capture-instance-ddl is for --mode live "
                    + "--backend mssql_cdc (the live reader creates the capture instance on the source)"));
            }
            if (valuePolicies.declared() || !valuePolicies.columns().isEmpty()) {
                out.add(invalid("--value-policy", "value policies apply where a live reader reads the source; "
                    + "--mode local replays exported events, whose values must fit their columns"));
            }
        } else {
            validateLive(out);
        }
        validatePolicies(out);
        if (maxEvents != null && (maxEvents < 1 || maxEvents > MAX_EVENTS_LIMIT)) {
            out.add(invalid("--max-events", "--max-events must be 1.." + MAX_EVENTS_LIMIT));
        }
        return out;
    }

    private static void dataset(List<Blocker> out, String option, String value) {
        String[] dataset = value == null ? new String[0] : value.split("\\.", -1);
        if (dataset.length != 2 || !IDENTIFIER.matcher(dataset[0]).matches()
            || !IDENTIFIER.matcher(dataset[1]).matches()) {
            out.add(invalid(option, option + " must be db.table, each part matching " + IDENTIFIER.pattern()));
        }
    }

    private static void keys(List<Blocker> out, String option, List<String> keys) {
        if (keys.isEmpty()) {
            out.add(invalid(option, "at least one unique key is required (" + option + ")"));
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < keys.size(); i++) {
            identifier(out, option + "[" + i + "]", keys.get(i));
            if (!seen.add(keys.get(i))) {
                out.add(invalid(option + "[" + i + "]", "unique key " + keys.get(i) + " is repeated"));
            }
        }
    }

    /**
     * A multi-table stream: {@code --table} names every table (the single-table options stay unset), live
     * {@code mssql_cdc} only, each source table and each CDC log once, every log in one database (the offset table's),
     * value policies by default only (a column policy would name a column of one table).
     */
    private void validateTables(List<Blocker> out) {
        String[][] single = {{"--source-schema", sourceSchema}, {"--source-table", sourceTable},
                             {"--target-dataset", targetDataset}, {"--capture-instance", captureInstance}};
        for (String[] o : single) {
            if (o[1] != null) {
                out.add(invalid(o[0], o[0] + " is for a single-table stream; --table names every table of a "
                    + "multi-table stream"));
            }
        }
        if (!uniqueKeys.isEmpty()) {
            out.add(invalid("--unique-key", "--unique-key is for a single-table stream; each --table names its "
                + "own keys (SCHEMA.TABLE=DB.TABLE:KEY[,KEY...])"));
        }
        if (mode != CdcMode.live || !"mssql_cdc".equals(backend)) {
            out.add(invalid(selection != null && tables.isEmpty() ? "--include-table" : "--table", "a multi-table stream reads SQL Server CDC live (--mode live --backend "
                + "mssql_cdc); other modes and backends read one table per stream"));
        }
        if (!valuePolicies.columns().isEmpty()) {
            out.add(invalid("--value-policy", "a multi-table stream takes --value-policy-default only; a column "
                + "policy would name a column of one of its tables"));
        }
        if (tables.size() > MAX_TABLES) {
            out.add(invalid("--table", "a stream names at most " + MAX_TABLES + " tables"));
        }
        if (selection != null) {
            TableSelections.validate(selection, out);
        }
        Set<String> sources = new HashSet<>();
        Set<String> targets = new HashSet<>();
        Set<String> databases = new java.util.TreeSet<>();
        for (int i = 0; i < tables.size(); i++) {
            Table t = tables.get(i);
            String at = "--table[" + i + "]";
            identifier(out, at + ".source_schema", t.sourceSchema());
            identifier(out, at + ".source_table", t.sourceTable());
            dataset(out, at + ".target_dataset", t.targetDataset());
            keys(out, at + ".unique_keys", t.uniqueKeys());
            if (t.captureInstance() != null) {
                identifier(out, at + ".capture_instance", t.captureInstance());
            }
            if (t.sourceSchema() != null && t.sourceTable() != null
                && !sources.add(t.sourceSchema() + "." + t.sourceTable())) {
                out.add(invalid(at, "source table " + t.sourceSchema() + "." + t.sourceTable() + " is named twice"));
            }
            if (t.targetDataset() != null && !targets.add(t.targetDataset())) {
                out.add(invalid(at, "target dataset " + t.targetDataset() + " is named twice: each table has its "
                    + "own CDC log"));
            }
            if (t.targetDataset() != null && t.targetDataset().contains(".")) {
                databases.add(t.targetDataset().substring(0, t.targetDataset().indexOf('.')));
            }
        }
        if (databases.size() > 1) {
            out.add(invalid("--table", "every table's CDC log lives in one database (the stream's offset table "
                + "<db>.dpone_cdc_offsets is there); found " + databases));
        }
    }

    /** Policy column names are identifiers; {@code as_text} names a column, never the default. */
    private void validatePolicies(List<Blocker> out) {
        if (valuePolicies.defaultPolicy() == ValuePolicy.AS_TEXT) {
            out.add(invalid("--value-policy-default", "as_text applies to a named sql_variant column, never as the"
                + " default"));
        }
        for (String column : valuePolicies.columns().keySet()) {
            if (!IDENTIFIER.matcher(column).matches()) {
                out.add(invalid("--value-policy", "--value-policy column must match " + IDENTIFIER.pattern()));
            }
        }
    }

    private void validateLive(List<Blocker> out) {
        if (backend != null && !LIVE_BACKENDS.contains(backend)) {
            out.add(CdcBlockers.blocker(CdcBlockers.MODE_UNSUPPORTED, "--backend", "--mode live reads --backend "
                + String.join(" or ", LIVE_BACKENDS) + "; no live reader exists for this backend"));
        }
        if (sourceConnectionId == null) {
            out.add(invalid("--source-connection-id", "--source-connection-id is required with --mode live"));
        }
        if (sinkConnectionId == null) {
            out.add(invalid("--sink-connection-id", "--sink-connection-id is required with --mode live"));
        }
        if (eventsJson != null) {
            out.add(invalid("--events-json", "--mode live reads the source connection; --events-json is for "
                + "--mode local"));
        }
        if (checkpointJson != null) {
            out.add(invalid("--checkpoint-json", "--mode live commits to the ClickHouse offset table "
                + "<target db>.dpone_cdc_offsets; --checkpoint-json is for --mode local"));
        }
        if (captureInstance != null) {
            identifier(out, "--capture-instance", captureInstance);
            if (!"mssql_cdc".equals(backend)) {
                out.add(invalid("--capture-instance", "--capture-instance is for --backend mssql_cdc"));
            }
        }
        if (allowCaptureInstanceDdl && !"mssql_cdc".equals(backend)) {
            out.add(invalid("--allow-capture-instance-ddl", "--allow-capture-instance-ddl is for --backend mssql_cdc "
                + "(capture instances are SQL Server CDC's)"));
        }
    }

    private static void identifier(List<Blocker> out, String option, String value) {
        if (value == null) {
            out.add(invalid(option, option + " is required"));
        } else if (!IDENTIFIER.matcher(value).matches()) {
            out.add(invalid(option, option + " must match " + IDENTIFIER.pattern()));
        }
    }

    private static void name(List<Blocker> out, String option, String value) {
        if (value == null) {
            out.add(invalid(option, option + " is required"));
        } else if (!NAME.matcher(value).matches()) {
            out.add(invalid(option, option + " must be 1-128 letters, digits, '_', '.', '-' starting with a "
                + "letter or digit"));
        }
    }

    private static void required(List<Blocker> out, String option, Object value) {
        if (value == null) {
            out.add(invalid(option, option + " is required with --mode local"));
        }
    }

    private static Blocker invalid(String option, String message) {
        return CdcBlockers.blocker(CdcBlockers.INVALID_ARGUMENT, option, message);
    }
}
