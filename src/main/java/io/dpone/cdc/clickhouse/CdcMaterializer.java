package io.dpone.cdc.clickhouse;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.TableAdmin;
import io.dpone.clickhouse.cdc.RebuildStatements;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.manifest.Identifier;
import io.dpone.source.SourceColumn;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rebuilds the serving table of a ClickHouse CDC log: the latest row per {@code dpone_cdc_unique_key_hash} by
 * {@code dpone_cdc_version} ({@code update_before} images ignored), built in a staging table and published
 * atomically: {@code EXCHANGE TABLES} when the target exists, {@code RENAME TABLE} on the first run (the target
 * database must be Atomic). The rebuild is bounded by the log's maximum version read at the start, so rows appended
 * meanwhile wait for the next run. Delete modes: {@code exclude_deleted} drops keys whose latest change is a
 * delete; {@code tombstone} keeps them (with the delete's before-image) and {@code dpone_cdc_deleted = 1}.
 * Re-running on the same log publishes the same rows. A target that exists but was not published by the
 * materializer (its table comment) is never replaced.
 */
public final class CdcMaterializer {
    /** The report's schema and files: {@link CdcMaterializationReport}, which renders them. */
    public static final String SCHEMA = CdcMaterializationReport.SCHEMA;
    public static final String TARGET_MARKER = "dpone.cdc_materialized.v1";
    public static final String JSON_FILE = CdcMaterializationReport.JSON_FILE;
    public static final String MD_FILE = CdcMaterializationReport.MD_FILE;
    public static final String STAGE_SUFFIX = "__dpone_cdc_stage";

    /** The CDC log table does not exist. */
    public static final String LOG_MISSING = BlockerCode.CDC_MATERIALIZE_LOG_MISSING.code();
    /** The CDC log table is not a dpone CDC log (no {@code dpone.cdc_log.v1} comment or missing columns). */
    public static final String NOT_A_CDC_LOG = BlockerCode.CDC_MATERIALIZE_NOT_A_CDC_LOG.code();
    /** A {@code --unique-key} column is not a payload column of the log. */
    public static final String UNIQUE_KEY_MISSING = BlockerCode.CDC_MATERIALIZE_UNIQUE_KEY_MISSING.code();
    /** The log's unique-key hashes were not computed from the {@code --unique-key} columns (other keys or order). */
    public static final String UNIQUE_KEY_MISMATCH = BlockerCode.CDC_MATERIALIZE_UNIQUE_KEY_MISMATCH.code();
    /** The target exists and was not published by the materializer: it is never replaced. */
    public static final String TARGET_NOT_OWNED = BlockerCode.CDC_MATERIALIZE_TARGET_NOT_OWNED.code();
    /** The staging table does not hold the expected number of keys; nothing was published. */
    public static final String VERIFY_FAILED = BlockerCode.CDC_MATERIALIZE_VERIFY_FAILED.code();
    /** The log continues a handed-over snapshot that cannot be merged (table gone, key column missing, JSON keys). */
    public static final String SNAPSHOT_UNUSABLE = BlockerCode.CDC_MATERIALIZE_SNAPSHOT_UNUSABLE.code();
    /** An option value is invalid. */
    public static final String INVALID_ARGUMENT = BlockerCode.CDC_MATERIALIZE_INVALID_ARGUMENT.code();

    public static final List<String> CODES = List.of(INVALID_ARGUMENT, LOG_MISSING, NOT_A_CDC_LOG,
        UNIQUE_KEY_MISSING, UNIQUE_KEY_MISMATCH, TARGET_NOT_OWNED, VERIFY_FAILED, SNAPSHOT_UNUSABLE);

    private static final String HASH = "dpone_cdc_unique_key_hash";
    private static final String OP = "dpone_cdc_operation";
    private static final String VERSION = "dpone_cdc_version";
    private static final String DELETED = "dpone_cdc_deleted";
    /** Metadata columns carried into the serving table, with their types. */
    private static final Map<String, String> CARRIED = carried();

    public enum DeleteMode { exclude_deleted, tombstone }

    /** {@code rebuild}: the whole log into a table, published by EXCHANGE; {@code incremental}: see {@link IncrementalServing}. */
    public enum Mode { rebuild, incremental }

    /** When the incremental mode merges its versioned table with {@code OPTIMIZE ... FINAL}. */
    public enum Compact { auto, always, never }

    /**
     * The incremental mode's settings.
     *
     * @param batchRows               log rows per applied batch (a batch ends at a version boundary)
     * @param tombstoneRetention      keys whose latest change is a delete older than this are purged when the
     *                                table is compacted; null: never purged
     * @param compact                 {@code auto}: when a threshold below is passed
     * @param compactMaxParts         compaction when the versioned table has more active parts
     * @param compactMaxUnmergedShare compaction when more of its rows lie outside its largest part
     * @param servingView             {@code auto}, {@code final} or {@code argmax}
     */
    public record Incremental(long batchRows, java.time.Duration tombstoneRetention, Compact compact,
                              int compactMaxParts, double compactMaxUnmergedShare, String servingView) {
        public static Incremental defaults() {
            return new Incremental(1_000_000, java.time.Duration.ofDays(7), Compact.auto, 32, 0.25, "auto");
        }
    }

    /** What to materialize. Datasets are {@code db.table}. */
    public record Options(String cdcDataset, String targetDataset, List<String> uniqueKeys, DeleteMode deleteMode,
                          Mode mode, Incremental incremental) {
        public Options {
            uniqueKeys = List.copyOf(uniqueKeys);
            mode = mode == null ? Mode.rebuild : mode;
            incremental = incremental == null ? Incremental.defaults() : incremental;
        }

        /** The spec's rebuild. */
        public Options(String cdcDataset, String targetDataset, List<String> uniqueKeys, DeleteMode deleteMode) {
            this(cdcDataset, targetDataset, uniqueKeys, deleteMode, Mode.rebuild, null);
        }
    }

    private final ClickHouseEndpoint ch;
    private final Runnable afterInsert;

    public CdcMaterializer(ClickHouseEndpoint ch) {
        this(ch, null);
    }

    /** Tests: {@code afterInsert} runs after each incremental batch's insert, before its version is committed. */
    CdcMaterializer(ClickHouseEndpoint ch, Runnable afterInsert) {
        this.ch = ch;
        this.afterInsert = afterInsert;
    }

    /**
     * Materializes and returns the report (schema {@link #SCHEMA}); typed problems become blockers in the report
     * ({@code passed = false}) and nothing is published. With {@code outputDir} non-null the report is written as
     * {@link #JSON_FILE} and {@link #MD_FILE} through the redaction layer ({@link CdcMaterializationReport}).
     */
    public Map<String, Object> materialize(Options o, Path outputDir) {
        Instant started = Instant.now();
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("schema", SCHEMA);
        report.put("passed", false);
        report.put("cdc_dataset", o.cdcDataset());
        report.put("target_dataset", o.targetDataset());
        report.put("unique_keys", o.uniqueKeys());
        report.put("delete_mode", o.deleteMode() == null ? null : o.deleteMode().name());
        List<Blocker> blockers = new ArrayList<>();
        try {
            run(o, report);
            report.put("passed", true);
        } catch (DponeException e) {
            blockers.addAll(e.blockers());
        }
        report.put("blockers", blockers);
        report.put("started_at", started.toString());
        report.put("finished_at", Instant.now().toString());
        report.put("artifacts", List.of(JSON_FILE, MD_FILE));
        if (outputDir != null) {
            CdcMaterializationReport.write(outputDir, report);
        }
        return report;
    }

    private void run(Options o, Map<String, Object> report) {
        String[] log = dataset(o.cdcDataset(), "--cdc-dataset");
        String[] target = dataset(o.targetDataset(), "--target-dataset");
        List<Blocker> invalid = new ArrayList<>();
        if (o.uniqueKeys().isEmpty()) {
            invalid.add(new Blocker(INVALID_ARGUMENT, "--unique-key", "at least one unique-key column is required",
                Map.of()));
        }
        o.uniqueKeys().stream().filter(k -> !Identifier.valid(k)).findFirst()
            .ifPresent(k -> invalid.add(new Blocker(INVALID_ARGUMENT, "--unique-key",
                "unique-key columns must be identifiers", Map.of())));
        if (o.deleteMode() == null) {
            invalid.add(new Blocker(INVALID_ARGUMENT, "--delete-mode", "exclude_deleted or tombstone", Map.of()));
        }
        if (log[0].equals(target[0]) && log[1].equals(target[1])) {
            invalid.add(new Blocker(INVALID_ARGUMENT, "--target-dataset", "the target must not be the CDC log",
                Map.of()));
        }
        if (o.mode() == Mode.incremental) {
            Incremental inc = o.incremental();
            if (inc.batchRows() < 1) {
                invalid.add(new Blocker(INVALID_ARGUMENT, "--batch-rows", "at least 1", Map.of()));
            }
            if (inc.tombstoneRetention() != null && inc.tombstoneRetention().isNegative()) {
                invalid.add(new Blocker(INVALID_ARGUMENT, "--tombstone-retention", "must not be negative", Map.of()));
            }
            if (inc.compactMaxParts() < 1 || !(inc.compactMaxUnmergedShare() >= 0)
                || inc.compactMaxUnmergedShare() > 1) {
                invalid.add(new Blocker(INVALID_ARGUMENT, "--compact-max-parts",
                    "compaction thresholds: parts at least 1, unmerged share between 0 and 1", Map.of()));
            }
        }
        if (!invalid.isEmpty()) {
            throw new DponeException(invalid);
        }
        TableAdmin admin = new TableAdmin(ch);
        if (!admin.exists(log[0], log[1])) {
            throw fail(LOG_MISSING, "--cdc-dataset", o.cdcDataset() + " does not exist");
        }
        if (CdcLogTable.streamIdOf(admin.comment(log[0], log[1]).orElse("")).isEmpty()) {
            throw fail(NOT_A_CDC_LOG, "--cdc-dataset", o.cdcDataset() + " is not a dpone CDC log ("
                + CdcLogTable.SCHEMA + ")");
        }
        List<RebuildStatements.LogColumn> described = new RebuildStatements(ch).describe(log[0], log[1]);
        List<String> columns = described.stream().map(RebuildStatements.LogColumn::name).toList();
        Map<String, SourceColumn> typed = new LinkedHashMap<>();
        Map<String, String> logTypes = new LinkedHashMap<>();
        Map<Integer, String> recordedKeys = new java.util.TreeMap<>();
        for (RebuildStatements.LogColumn r : described) {
            logTypes.put(r.name(), r.type());
            CdcLogTable.typedColumn(r.name(), r.comment()).ifPresent(c -> typed.put(c.name(), c));
            int key = CdcLogTable.keyOrdinal(r.comment());
            if (key > 0) {
                recordedKeys.put(key, r.name());
            }
        }
        List<String> missingMeta = CARRIED.keySet().stream().filter(c -> !columns.contains(c)).toList();
        if (!missingMeta.isEmpty()) {
            throw new DponeException(new Blocker(NOT_A_CDC_LOG, "--cdc-dataset", o.cdcDataset()
                + " lacks CDC columns", Map.of("missing", missingMeta)));
        }
        List<String> payload = new ArrayList<>(o.uniqueKeys().stream().filter(columns::contains).toList());
        columns.stream().filter(c -> !c.startsWith(CdcLogTable.PREFIX) && !payload.contains(c)).forEach(payload::add);
        List<String> missingKeys = o.uniqueKeys().stream().filter(k -> !payload.contains(k)).toList();
        if (!missingKeys.isEmpty()) {
            throw new DponeException(new Blocker(UNIQUE_KEY_MISSING, "--unique-key", "unique-key column(s) "
                + String.join(", ", missingKeys) + " are not payload columns of " + o.cdcDataset(),
                Map.of("missing", missingKeys)));
        }
        if (o.uniqueKeys().stream().allMatch(typed::containsKey)) {
            // typed keys: the log recorded which columns its key hashes were computed from
            List<String> recorded = new ArrayList<>(recordedKeys.values());
            if (!recorded.equals(o.uniqueKeys())) {
                throw new DponeException(new Blocker(UNIQUE_KEY_MISMATCH, "--unique-key", o.cdcDataset()
                    + " was written with unique keys " + recorded + ", not " + o.uniqueKeys(),
                    Map.of("recorded", recorded)));
            }
        } else {
            checkKeyHashes(o, log);
        }
        admin.ensureAtomicDatabase(target[0], "--target-dataset");
        boolean targetExists = admin.exists(target[0], target[1]);
        if (targetExists && !admin.comment(target[0], target[1]).orElse("").startsWith(TARGET_MARKER)) {
            throw fail(TARGET_NOT_OWNED, "--target-dataset", o.targetDataset()
                + " exists and was not published by the CDC materializer; it was not replaced");
        }
        if (o.mode() == Mode.incremental) {
            new IncrementalServing(ch, o, log, target, payload, typed, logTypes, CARRIED, afterInsert).run(report);
            List<String> jsonText = payload.stream().filter(c -> !typed.containsKey(c)).toList();
            report.put("typed", jsonText.isEmpty());
            report.put("notes", jsonText.isEmpty() ? List.of() : List.of(jsonTextNote(jsonText)));
            return;
        }
        publish(o, log, target, payload, typed, logTypes, report);
    }

    private static String jsonTextNote(List<String> jsonText) {
        return "payload column(s) " + String.join(", ", jsonText) + " are JSON text (Nullable(String)): the log "
            + "holds no source types for them (an events file without a columns block, or a log created before "
            + "typed logs); see docs/cdc-clickhouse.md";
    }

    /** JSON-text keys: the hash of the key columns is recomputed in SQL from their canonical JSON text. */
    private void checkKeyHashes(Options o, String[] log) {
        long mismatched = new RebuildStatements(ch).keyHashMismatches(log[0], log[1], o.uniqueKeys(), HASH);
        if (mismatched > 0) {
            throw new DponeException(new Blocker(UNIQUE_KEY_MISMATCH, "--unique-key", mismatched + " row(s) of "
                + o.cdcDataset() + " have a dpone_cdc_unique_key_hash that is not the hash of "
                + o.uniqueKeys() + "; the log was written with other unique keys", Map.of("rows", mismatched)));
        }
    }

    /**
     * Builds the staging table (typed payload columns with the full refresh's types, unique keys first, JSON-text
     * columns as {@code Nullable(String)}), fills it with the latest row per key, verifies and publishes it.
     */
    private void publish(Options o, String[] log, String[] target, List<String> payload,
                         Map<String, SourceColumn> typed, Map<String, String> logTypes, Map<String, Object> report) {
        TableAdmin admin = new TableAdmin(ch);
        boolean targetExists = admin.exists(target[0], target[1]);
        RebuildStatements statements = new RebuildStatements(ch);
        // one bound for the whole run: rows appended after this read wait for the next run
        RebuildStatements.VersionRange stats = statements.versionRange(log[0], log[1], VERSION);
        long rowsIn = stats.rows();
        String bound = stats.max();
        List<String> carried = new ArrayList<>(payload);
        carried.addAll(CARRIED.keySet());
        String rows = RebuildStatements.rowsUpTo(log[0], log[1], carried, VERSION, bound, OP);
        var snapshot = new CdcSnapshots(ch, log[0]).of(o.cdcDataset());
        boolean typedKeys = o.uniqueKeys().stream().allMatch(typed::containsKey);
        if (snapshot.isPresent()) {
            if (!typedKeys) {
                throw fail(SNAPSHOT_UNUSABLE, "--cdc-dataset", o.cdcDataset() + " continues a snapshot but its "
                    + "unique keys are JSON text; nothing was published");
            }
            rows = SnapshotMerge.rows(ch, rows, payload, logTypes, CARRIED, snapshot.get(), o.uniqueKeys());
            report.put("snapshot", Map.of("dataset", snapshot.get().snapshotDataset(), "position",
                snapshot.get().position(), "run_id", snapshot.get().runId()));
        }
        // typed keys: the latest row per key by the key columns themselves (equal to the key hash, and the only
        // way with snapshot rows, which have no hash); JSON-text keys: by the hash
        String latest = RebuildStatements.latest(rows, carried, typedKeys ? o.uniqueKeys() : List.of(HASH), VERSION);
        long[] counts = statements.keysAndDeletes(latest, OP);
        long keys = counts[0];
        long deletedKeys = counts[1];
        boolean tombstone = o.deleteMode() == DeleteMode.tombstone;
        long expected = tombstone ? keys : keys - deletedKeys;

        String stage = target[1] + STAGE_SUFFIX;
        if (!Identifier.valid(stage)) {
            throw new IllegalArgumentException("invalid ClickHouse identifier");
        }
        admin.drop(target[0], stage);
        Map<String, String> servingTypes = ServingColumns.types(payload, typed, o.uniqueKeys(), tombstone);
        ServingColumns.refuseNulls(ch, latest, servingTypes, tombstone, OP);
        Map<String, String> defs = new LinkedHashMap<>(servingTypes);
        defs.putAll(CARRIED);
        if (tombstone) {
            defs.put(DELETED, "UInt8");
        }
        statements.createStage(target[0], stage, defs, ServingColumns.orderBy(servingTypes, o.uniqueKeys(), HASH),
            TARGET_MARKER + " source=" + o.cdcDataset() + " delete_mode=" + o.deleteMode().name());
        statements.fillStage(target[0], stage, carried, latest, OP, tombstone ? DELETED : null);
        long staged = ch.operations().count(target[0], stage);
        if (staged != expected) {
            admin.drop(target[0], stage);
            throw new DponeException(new Blocker(VERIFY_FAILED, "--target-dataset", "staging holds " + staged
                + " row(s), expected " + expected + "; nothing was published",
                Map.of("staged", staged, "expected", expected)));
        }
        String publish;
        if (targetExists) {
            admin.exchange(target[0], stage, target[0], target[1]);
            admin.drop(target[0], stage);
            // the target was the incremental mode's view: its versioned table is no longer read
            IncrementalServing.dropVersions(ch, target);
            publish = "exchange";
        } else {
            admin.rename(target[0], stage, target[0], target[1]);
            publish = "rename";
        }
        report.put("rows_in", rowsIn);
        report.put("keys_in", keys);
        report.put("keys_out", staged);
        report.put("deletes_applied", deletedKeys);
        Map<String, Object> range = new LinkedHashMap<>();
        range.put("min", rowsIn == 0 ? null : stats.min());
        range.put("max", rowsIn == 0 ? null : bound);
        report.put("version_range", range);
        report.put("payload_columns", payload);
        report.put("column_types", servingTypes);
        List<String> jsonText = payload.stream().filter(c -> !typed.containsKey(c)).toList();
        report.put("typed", jsonText.isEmpty());
        report.put("notes", jsonText.isEmpty() ? List.of() : List.of(jsonTextNote(jsonText)));
        report.put("publish", publish);
    }

    private static String[] dataset(String value, String subject) {
        String[] parts = value == null ? new String[0] : value.split("\\.", -1);
        if (parts.length != 2 || !Identifier.valid(parts[0]) || !Identifier.valid(parts[1])) {
            throw fail(INVALID_ARGUMENT, subject, subject + " must be db.table (identifiers)");
        }
        return parts;
    }

    private static DponeException fail(String code, String subject, String message) {
        return new DponeException(new Blocker(code, subject, message, Map.of()));
    }

    private static Map<String, String> carried() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(HASH, "String");
        m.put(OP, "LowCardinality(String)");
        m.put("dpone_cdc_position", "String");
        m.put("dpone_cdc_sequence", "UInt64");
        m.put(VERSION, "UInt256");
        m.put("dpone_cdc_commit_time", "DateTime64(3, 'UTC')");
        return java.util.Collections.unmodifiableMap(m);
    }
}
