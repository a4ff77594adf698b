package io.dpone.cdc.verify;

import io.dpone.cdc.CdcBatch;
import io.dpone.cdc.CdcEvent;
import io.dpone.cdc.CdcHashes;
import io.dpone.cdc.CdcOffset;
import io.dpone.cdc.CdcPosition;
import io.dpone.cdc.CdcSourceReader;
import io.dpone.cdc.StreamIdentity;
import io.dpone.cdc.clickhouse.CdcMaterializer;
import io.dpone.cdc.clickhouse.CdcServing;
import io.dpone.cdc.clickhouse.ClickHouseOffsetStore;
import io.dpone.cdc.local.FileOffsetStore;
import io.dpone.cdc.mssql.LiveReaders;
import io.dpone.cdc.mssql.SnapshotBoundary;
import io.dpone.cdc.mssql.SqlServerCdcReader;
import io.dpone.cdc.runtime.ClickHouseCdcAdapters;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.CatalogueReads;
import io.dpone.clickhouse.cdc.ServingHashes;
import io.dpone.clickhouse.cdc.ServingRepair;
import io.dpone.clickhouse.cdc.ServingVersions;
import io.dpone.manifest.Identifier;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.format.ByteBuf;
import io.dpone.format.RowBinaryEncoder;
import io.dpone.manifest.TableRef;
import io.dpone.manifest.ValuePolicies;
import io.dpone.quality.TypedRowHasher;
import io.dpone.report.ReportWriter;
import io.dpone.source.JdbcSourceReader;
import io.dpone.source.RowCursor;
import io.dpone.source.SourceColumn;
import io.dpone.source.SourceTable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * {@code dpone ops cdc-verify}: proves that a CDC serving dataset equals its source table, per bucket of the key
 * space, with the full refresh's typed hash (see docs/cdc-clickhouse.md, "Verification").
 *
 * <p>Every source row and every served row gets a key hash (the typed hash of its unique-key columns) and a row hash
 * (the typed hash of every column: {@link TypedRowHasher} on the source side,
 * {@link io.dpone.clickhouse.TableStatsReader#rowHash} in ClickHouse, read through
 * {@link io.dpone.clickhouse.cdc.ServingHashes}). A row's bucket is the top {@code log2(buckets)} bits of its key hash, so bucket {@code b} is a range
 * of the key-hash space. Two passes:
 * <ol>
 *   <li><b>scan</b>: per bucket, row count, sum of key hashes and sum of row hashes on both sides. A bucket equal on
 *   all three is consistent;</li>
 *   <li><b>confirm</b>, for the buckets that differ: at a source position {@code P} read before the read (the
 *   hand-over's mechanism), the rows of those buckets per key on both sides. Keys that may legitimately differ are
 *   excluded: those with a source change after the horizon {@code H = min(P, position the serving claims)} up to the
 *   position read after the source read (read from the source's change feed, the stream's own reader), and those
 *   whose served version lies above {@code H}. The serving side is thus restricted to versions at most {@code H} and
 *   the source to rows that did not change after {@code H}; any remaining difference is a divergence.</li>
 * </ol>
 * The report gives, per differing bucket, counts only (rows missing, extra, with other values), never a value.
 * {@code repair} re-snapshots only the differing buckets: their source rows read at a position {@code Pr} go into
 * the CDC log (and the versioned table of an incremental target) as rows of the hand-over's version
 * {@code (Pr + 1) * 2^67 - 1}, keys served but absent at the source as deletes at that version; the stream's offset
 * and the materializer's state are not touched, and every change after {@code Pr} still wins by its version.
 */
public final class CdcVerifier {
    public static final String SCHEMA = "dpone.cdc_verify.v1";
    public static final String JSON_FILE = "cdc_verify.json";
    public static final String MD_FILE = "cdc_verify.md";
    /** The gauge {@code serve} exports after each scheduled verification. */
    public static final String METRIC = "dpone_cdc_verify_mismatched_buckets";

    public static final String INVALID_ARGUMENT = BlockerCode.CDC_VERIFY_INVALID_ARGUMENT.code();
    public static final String SERVING_UNUSABLE = BlockerCode.CDC_VERIFY_SERVING_UNUSABLE.code();
    public static final String MISMATCH = BlockerCode.CDC_VERIFY_MISMATCH.code();
    public static final String INCONCLUSIVE = BlockerCode.CDC_VERIFY_INCONCLUSIVE.code();
    public static final List<String> CODES = List.of(INVALID_ARGUMENT, SERVING_UNUSABLE, MISMATCH, INCONCLUSIVE);

    private static final String VERSION = "dpone_cdc_version";
    private static final String DELETED = "dpone_cdc_deleted";
    /** The sequence part of the hand-over version: every change at the position ranks below it. */
    private static final String MAX_SEQUENCE = "18446744073709551615";

    /**
     * What to verify.
     *
     * @param stream          the stream: pipeline, backend, source table, CDC log ({@code targetDataset}), unique keys
     * @param captureInstance {@code mssql_cdc}: the capture instance, null for {@code <schema>_<table>}
     * @param servingDataset  the serving dataset readers query, {@code db.table}
     * @param buckets         a power of two, 1..65536
     * @param repair          re-snapshot the differing buckets, then verify again
     * @param checkpointJson  the stream's file checkpoint, or null for {@code <log db>.dpone_cdc_offsets}
     * @param maxChangeEvents the most source changes the confirm pass reads before it gives up (inconclusive)
     * @param valuePolicies   the stream's value policies (null: none), so the source reads as its ticks read it
     */
    public record Options(StreamIdentity stream, String captureInstance, String servingDataset, int buckets,
                          boolean repair, Path checkpointJson, int maxChangeEvents, ValuePolicies valuePolicies) {
        public Options {
            valuePolicies = valuePolicies == null ? ValuePolicies.NONE : valuePolicies;
        }

        public Options(StreamIdentity stream, String servingDataset, int buckets, boolean repair) {
            this(stream, null, servingDataset, buckets, repair, null, 1_000_000, null);
        }
    }

    /** One bucket's aggregates. */
    static final class Agg {
        long rows;
        long keySum;
        long rowSum;

        boolean same(Agg o) {
            return rows == o.rows && keySum == o.keySum && rowSum == o.rowSum;
        }
    }

    /** A bucket that differs after the confirm pass, as counts. */
    record BucketResult(int bucket, long sourceRows, long servingRows, long missingInServing, long extraInServing,
                        long valuesDiffer, long movingExcluded) {
        boolean mismatched() {
            return missingInServing + extraInServing + valuesDiffer > 0;
        }
    }

    /** The result of one scan + confirm. */
    record Pass(String positionBefore, String positionAfter, long sourceRows, long servingRows, int differing,
                List<BucketResult> mismatched, List<Integer> inFlight, Map<String, Object> confirm,
                long sourceMillis, long servingMillis, long confirmMillis) {
    }

    private final ClickHouseEndpoint ch;
    private final JdbcSourceReader rows;
    private final Connection source;
    private final Path spoolDir;

    /**
     * @param rows     reads the source table (the full refresh's reader: the same values, the same encoding)
     * @param source   reads positions and the change feed
     * @param spoolDir where a repair's RowBinary transfer file goes (deleted afterwards)
     */
    public CdcVerifier(ClickHouseEndpoint ch, JdbcSourceReader rows, Connection source, Path spoolDir) {
        this.ch = ch;
        this.rows = rows;
        this.source = source;
        this.spoolDir = spoolDir;
    }

    /**
     * Verifies (and with {@code repair}, repairs) and returns the report (schema {@link #SCHEMA}); typed problems are
     * blockers in it. With {@code outputDir} non-null the report is written as {@link #JSON_FILE} and
     * {@link #MD_FILE} through the redaction layer.
     */
    public Map<String, Object> verify(Options o, Path outputDir) {
        Instant started = Instant.now();
        long t0 = System.nanoTime();
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("schema", SCHEMA);
        report.put("run_id", "verify-" + started.toString().replaceAll("[^0-9TZ]", "") + "-"
            + CdcHashes.sha256Hex(started + ":" + System.nanoTime()).substring(0, 8));
        report.put("passed", false);
        report.put("verdict", "blocked");
        Map<String, Object> stream = new LinkedHashMap<>();
        stream.put("pipeline_name", o.stream().pipelineName());
        stream.put("backend", o.stream().backend());
        stream.put("source_schema", o.stream().sourceSchema());
        stream.put("source_table", o.stream().sourceTable());
        stream.put("cdc_dataset", o.stream().targetDataset());
        stream.put("unique_keys", o.stream().uniqueKeys());
        report.put("stream", stream);
        report.put("serving_dataset", o.servingDataset());
        report.put("buckets", o.buckets());
        List<Blocker> blockers = new ArrayList<>();
        try {
            new Run(o, report).run();
        } catch (DponeException e) {
            blockers.addAll(e.blockers());
        }
        @SuppressWarnings("unchecked")
        List<Blocker> found = (List<Blocker>) report.remove("mismatch_blockers");
        if (found != null) {
            blockers.addAll(found);
        }
        report.put("passed", blockers.isEmpty());
        report.put("blockers", blockers);
        Map<String, Object> metrics = report.get("metrics") instanceof Map<?, ?> m ? cast(m) : new LinkedHashMap<>();
        metrics.put("duration_ms", (System.nanoTime() - t0) / 1_000_000);
        report.put("metrics", metrics);
        report.put("started_at", started.toString());
        report.put("finished_at", Instant.now().toString());
        if (outputDir != null) {
            report.put("artifacts", List.of(JSON_FILE, MD_FILE));
            ReportWriter.writeJson(outputDir.resolve(JSON_FILE), report);
            ReportWriter.writeMarkdown(outputDir.resolve(MD_FILE), CdcVerifyMarkdown.render(report));
        }
        return report;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Map<?, ?> m) {
        return (Map<String, Object>) m;
    }

    /** The number of mismatched buckets a report names (its metric), or -1 when it was blocked before comparing. */
    public static long mismatchedBuckets(Map<String, Object> report) {
        Object after = report.get("after_repair");
        Object list = after instanceof Map<?, ?> a ? a.get("mismatched_buckets") : report.get("mismatched_buckets");
        return list instanceof List<?> l ? l.size() : -1;
    }

    /** The state of one verification. */
    private final class Run {
        private final Options o;
        private final Map<String, Object> report;
        private final String[] target;
        private final String[] log;
        private int bits;
        private SourceTable table;
        private List<String> columns;
        private int[] keyIndex;
        private List<SourceColumn> keyColumns;
        private CdcServing.Published published;
        private ServingHashes hashes;
        private Map<String, String> logTypes;

        Run(Options o, Map<String, Object> report) {
            this.o = o;
            this.report = report;
            this.target = dataset(o.servingDataset(), "--target-dataset");
            this.log = dataset(o.stream().targetDataset(), "--cdc-dataset");
        }

        void run() {
            check();
            Pass first = pass();
            report.put("serving_mode", published.incremental() ? "incremental" : "rebuild");
            report.put("delete_mode", published.deleteMode());
            put(report, first);
            Map<String, Object> metrics = new LinkedHashMap<>();
            metrics.put("source_scan_ms", first.sourceMillis());
            metrics.put("serving_scan_ms", first.servingMillis());
            metrics.put("confirm_ms", first.confirmMillis());
            report.put("metrics", metrics);
            report.put("repair", null);
            report.put("after_repair", null);
            Pass last = first;
            if (o.repair() && !first.mismatched().isEmpty()) {
                long r0 = System.nanoTime();
                report.put("repair", repair(first.mismatched().stream().map(BucketResult::bucket)
                    .collect(Collectors.toCollection(TreeSet::new))));
                metrics.put("repair_ms", (System.nanoTime() - r0) / 1_000_000);
                last = pass();
                Map<String, Object> after = new LinkedHashMap<>();
                put(after, last);
                report.put("after_repair", after);
            }
            String verdict = last.mismatched().isEmpty() ? (last == first ? "passed" : "repaired") : "mismatched";
            report.put("verdict", verdict);
            if (!last.mismatched().isEmpty()) {
                Map<String, Object> details = new LinkedHashMap<>();
                details.put("buckets", last.mismatched().stream().map(BucketResult::bucket).toList());
                report.put("mismatch_blockers", List.of(new Blocker(MISMATCH, o.servingDataset(), last.mismatched()
                    .size() + " of " + o.buckets() + " key-hash bucket(s) of the serving dataset differ from the "
                    + "source" + (o.repair() ? " after the repair" : "") + " (counts in mismatched_buckets)",
                    details)));
            }
        }

        private void put(Map<String, Object> m, Pass p) {
            Map<String, Object> position = new LinkedHashMap<>();
            position.put("before", p.positionBefore());
            position.put("after", p.positionAfter());
            m.put("position", position);
            m.put("source_rows", p.sourceRows());
            m.put("serving_rows", p.servingRows());
            m.put("differing_in_scan", p.differing());
            m.put("confirm", p.confirm());
            m.put("in_flight_buckets", p.inFlight());
            m.put("mismatched_buckets", p.mismatched().stream().map(this::bucketJson).toList());
        }

        private Map<String, Object> bucketJson(BucketResult b) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("bucket", b.bucket());
            Map<String, Object> range = new LinkedHashMap<>();
            range.put("from", String.format("%016x", bits == 0 ? 0L : ((long) b.bucket()) << (64 - bits)));
            range.put("to", String.format("%016x", bits == 0 ? -1L
                : (((long) b.bucket()) << (64 - bits)) | (-1L >>> bits)));
            m.put("key_hash_range", range);
            m.put("source_rows", b.sourceRows());
            m.put("serving_rows", b.servingRows());
            m.put("missing_in_serving", b.missingInServing());
            m.put("extra_in_serving", b.extraInServing());
            m.put("values_differ", b.valuesDiffer());
            m.put("moving_keys_excluded", b.movingExcluded());
            return m;
        }

        /** Options, the serving dataset, the source table and their columns; the hash expressions. */
        private void check() {
            int b = o.buckets();
            if (b < 1 || b > 65536 || Integer.bitCount(b) != 1) {
                throw invalid("--buckets", "a power of two from 1 to 65536");
            }
            bits = Integer.numberOfTrailingZeros(b);
            if (o.stream().uniqueKeys().isEmpty()) {
                throw invalid("--unique-key", "at least one unique-key column");
            }
            for (String k : o.stream().uniqueKeys()) {
                if (!Identifier.valid(k)) {
                    throw invalid("--unique-key", "a unique key is not an identifier");
                }
            }
            published = CdcServing.published(ch, target[0], target[1]).orElseThrow(() -> unusable(o.servingDataset()
                + " does not exist or was not published by dpone ops cdc-materialize-clickhouse"));
            table = rows.describe(new TableRef(o.stream().sourceSchema(), o.stream().sourceTable()), List.of(),
                o.valuePolicies());
            columns = table.columns().stream().map(SourceColumn::name).toList();
            keyIndex = new int[o.stream().uniqueKeys().size()];
            keyColumns = new ArrayList<>();
            for (int i = 0; i < keyIndex.length; i++) {
                String k = o.stream().uniqueKeys().get(i);
                keyIndex[i] = -1;
                for (int c = 0; c < columns.size(); c++) {
                    if (columns.get(c).equalsIgnoreCase(k)) {
                        keyIndex[i] = c;
                    }
                }
                if (keyIndex[i] < 0) {
                    throw invalid("--unique-key", "unique key " + k + " is not a column of the source table");
                }
                keyColumns.add(table.columns().get(keyIndex[i]));
            }
            Map<String, String> servingTypes = types(target[0], target[1]);
            List<Blocker> problems = new ArrayList<>();
            for (SourceColumn c : table.columns()) {
                String served = servingTypes.get(c.name());
                if (served == null) {
                    problems.add(new Blocker(SERVING_UNUSABLE, o.servingDataset(), "column " + c.name()
                        + " of the source table is not a column of the serving dataset", Map.of()));
                } else if (!bare(served).equals(bare(c.clickHouseType()))) {
                    problems.add(new Blocker(SERVING_UNUSABLE, o.servingDataset(), "column " + c.name() + " is "
                        + served + " in the serving dataset, the source maps to " + c.clickHouseType()
                        + " (a JSON-text log's serving table cannot be compared by typed hash)",
                        Map.of("column", c.name())));
                }
            }
            if (!problems.isEmpty()) {
                throw new DponeException(problems);
            }
            logTypes = types(log[0], log[1]);
            if (logTypes.isEmpty()) {
                throw unusable("the CDC log " + o.stream().targetDataset() + " does not exist");
            }
            hashes = new ServingHashes(ch, new ServingHashes.Scope(target[0], target[1],
                keyColumns.stream().map(SourceColumn::name).toList(), columns,
                servingTypes.containsKey(DELETED) ? DELETED : null, bits));
        }

        private Map<String, String> types(String db, String t) {
            Map<String, String> m = new LinkedHashMap<>();
            ch.operations().columns(db, t).forEach(c -> m.put(c.name(), c.type()));
            return m;
        }

        private int bucket(long keyHash) {
            return bits == 0 ? 0 : (int) (keyHash >>> (64 - bits));
        }

        /** One scan and, for the buckets that differ, one confirm. */
        private Pass pass() {
            String before = position();
            long s0 = System.nanoTime();
            Agg[] src = new Agg[o.buckets()];
            Agg[] srv = new Agg[o.buckets()];
            for (int i = 0; i < src.length; i++) {
                src[i] = new Agg();
                srv[i] = new Agg();
            }
            scanSource(null, (row, kh, rh) -> {
                Agg a = src[bucket(kh)];
                a.rows++;
                a.keySum += kh;
                a.rowSum += rh;
            });
            long s1 = System.nanoTime();
            for (ServingHashes.BucketSums r : hashes.bucketSums()) {
                Agg a = srv[r.bucket()];
                a.rows = r.rows();
                a.keySum = r.keySum();
                a.rowSum = r.rowSum();
            }
            long s2 = System.nanoTime();
            String after = position();
            long sourceRows = 0;
            long servingRows = 0;
            Set<Integer> differing = new TreeSet<>();
            for (int i = 0; i < src.length; i++) {
                sourceRows += src[i].rows;
                servingRows += srv[i].rows;
                if (!src[i].same(srv[i])) {
                    differing.add(i);
                }
            }
            List<BucketResult> mismatched = new ArrayList<>();
            List<Integer> inFlight = new ArrayList<>();
            Map<String, Object> confirm = null;
            if (!differing.isEmpty()) {
                confirm = new LinkedHashMap<>();
                for (BucketResult r : confirm(differing, src, srv, confirm)) {
                    if (r.mismatched()) {
                        mismatched.add(r);
                    } else {
                        inFlight.add(r.bucket());
                    }
                }
            }
            long s3 = System.nanoTime();
            return new Pass(before, after, sourceRows, servingRows, differing.size(), mismatched, inFlight, confirm,
                (s1 - s0) / 1_000_000, (s2 - s1) / 1_000_000, (s3 - s2) / 1_000_000);
        }

        /** Per key, in the differing buckets, with the keys that moved after the horizon left out. */
        private List<BucketResult> confirm(Set<Integer> buckets, Agg[] src, Agg[] srv, Map<String, Object> out) {
            String p = position();
            Map<Long, Long> sourceRows = new HashMap<>();
            scanSource(buckets, (row, kh, rh) -> sourceRows.put(kh, rh));
            String pAfter = position();
            Map<Long, Long> servingRows = new HashMap<>();
            Set<Long> duplicated = new HashSet<>();
            for (ServingHashes.RowHashes r : hashes.rows(buckets)) {
                long kh = r.keyHash();
                if (servingRows.put(kh, r.rowHash()) != null) {
                    duplicated.add(kh);
                }
            }
            BigInteger claimed = claimedPosition();
            BigInteger horizon = claimed.min(CdcPosition.of(p).value());
            Set<Long> moving = new HashSet<>();
            servedAbove(horizon, buckets, moving);
            int events = changedAtSource(horizon, CdcPosition.of(pAfter).value(), moving);
            out.put("position", p);
            out.put("position_after", pAfter);
            out.put("serving_claims", positionText(claimed));
            out.put("horizon", positionText(horizon));
            out.put("change_events_read", events);
            out.put("moving_keys", moving.size());
            Map<Integer, long[]> counts = new TreeMap<>();
            buckets.forEach(b -> counts.put(b, new long[4]));
            sourceRows.forEach((kh, rh) -> {
                long[] c = counts.get(bucket(kh));
                if (moving.contains(kh)) {
                    c[3]++;
                } else if (!servingRows.containsKey(kh)) {
                    c[0]++;
                } else if (!servingRows.get(kh).equals(rh) || duplicated.contains(kh)) {
                    c[2]++;
                }
            });
            servingRows.forEach((kh, rh) -> {
                long[] c = counts.get(bucket(kh));
                if (!moving.contains(kh) && !sourceRows.containsKey(kh)) {
                    c[1]++;
                } else if (moving.contains(kh) && !sourceRows.containsKey(kh)) {
                    c[3]++;
                }
            });
            List<BucketResult> results = new ArrayList<>();
            counts.forEach((b, c) -> results.add(new BucketResult(b, src[b].rows, srv[b].rows, c[0], c[1], c[2],
                c[3])));
            return results;
        }

        /** Keys whose served version lies above the horizon (versioned table, or the rebuild's table). */
        private void servedAbove(BigInteger horizon, Set<Integer> buckets, Set<Long> moving) {
            String table = published.incremental() ? CdcServing.versionsTable(target[1]) : target[1];
            moving.addAll(hashes.keysAbove(target[0], table, VERSION,
                CdcServing.snapshotVersion(horizon.toString()).toString(), buckets));
        }

        /**
         * Reads the source's change feed after {@code from} up to {@code to} (the stream's own reader) and adds the
         * key hash of every change; returns the number of changes read.
         */
        private int changedAtSource(BigInteger from, BigInteger to, Set<Long> moving) {
            if (from.compareTo(to) >= 0) {
                return 0;
            }
            CdcSourceReader reader = LiveReaders.reader(o.stream().backend(), source, o.stream(), o.captureInstance(),
                o.valuePolicies());
            RowBinaryEncoder encoder = new RowBinaryEncoder(keyColumns);
            TypedRowHasher hasher = new TypedRowHasher(keyColumns);
            ByteBuf buf = new ByteBuf(256);
            int[] offsets = new int[keyColumns.size() + 1];
            Object[] key = new Object[keyColumns.size()];
            CdcOffset at = new CdcOffset(o.stream().backend(), positionText(from), true);
            int read = 0;
            while (true) {
                CdcBatch batch = reader.readBatch(at, Math.min(100_000, o.maxChangeEvents()));
                for (CdcEvent e : batch.changes()) {
                    for (int i = 0; i < key.length; i++) {
                        key[i] = value(e.data(), keyColumns.get(i).name());
                    }
                    buf.reset();
                    encoder.encode(key, buf, offsets);
                    moving.add(hasher.hash(buf.array(), offsets));
                }
                read += batch.changes().size();
                if (read > o.maxChangeEvents()) {
                    throw new DponeException(new Blocker(INCONCLUSIVE, o.servingDataset(), "more than "
                        + o.maxChangeEvents() + " source changes after the horizon; the differing buckets could not "
                        + "be confirmed (run again when the stream has caught up)", Map.of()));
                }
                if (batch.changes().isEmpty() || batch.nextOffset() == null
                    || batch.nextOffset().position().value().compareTo(to) >= 0) {
                    return read;
                }
                at = batch.nextOffset();
            }
        }

        private Object value(Map<String, Object> data, String column) {
            if (data.containsKey(column)) {
                return data.get(column);
            }
            for (Map.Entry<String, Object> e : data.entrySet()) {
                if (e.getKey().equalsIgnoreCase(column)) {
                    return e.getValue();
                }
            }
            return null;
        }

        /**
         * The latest position the serving dataset claims to reflect in full: the stream's committed offset when
         * every log row is applied, else what its applied version (incremental) or its highest served version
         * (rebuild) covers.
         */
        private BigInteger claimedPosition() {
            BigInteger logMax = new ServingVersions(ch).max(log[0], log[1]);
            BigInteger served;
            if (published.incremental()) {
                served = CdcServing.appliedVersion(ch, target[0], o.servingDataset()).orElseThrow(() -> unusable(
                    "no applied version is recorded for " + o.servingDataset() + " (run the materialization)"));
            } else {
                served = new ServingVersions(ch).max(target[0], target[1]);
            }
            BigInteger covered = served.signum() == 0 ? BigInteger.ZERO : CdcServing.coveredPosition(served);
            Optional<CdcOffset> committed = committed();
            if (committed.isPresent() && logMax.compareTo(served) <= 0) {
                return covered.max(committed.get().position().value());
            }
            return covered.max(BigInteger.ZERO);
        }

        private Optional<CdcOffset> committed() {
            if (o.checkpointJson() != null) {
                return new FileOffsetStore(o.checkpointJson()).load(o.stream());
            }
            return new ClickHouseOffsetStore(ch, log[0], ClickHouseCdcAdapters.OFFSETS_TABLE).load(o.stream());
        }

        private String position() {
            return SnapshotBoundary.read(source, o.stream().backend(), o.captureInstance() != null
                ? o.captureInstance()
                : SqlServerCdcReader.defaultCaptureInstance(o.stream().sourceSchema(), o.stream().sourceTable()));
        }

        private String positionText(BigInteger p) {
            return SqlServerCdcReader.BACKEND.equals(o.stream().backend())
                ? "0x" + String.format("%20s", p.toString(16)).replace(' ', '0') : p.toString();
        }

        /** Reads every source row (or only those of {@code buckets}) and hands it over with its hashes. */
        private void scanSource(Set<Integer> buckets, RowVisitor visitor) {
            RowBinaryEncoder encoder = new RowBinaryEncoder(table.columns());
            TypedRowHasher hasher = new TypedRowHasher(table.columns());
            ByteBuf buf = new ByteBuf(4096);
            int[] offsets = new int[columns.size() + 1];
            try (RowCursor cursor = rows.open(table, 10_000, -1)) {
                Object[] row = new Object[columns.size()];
                while (cursor.next(row)) {
                    buf.reset();
                    encoder.encode(row, buf, offsets);
                    long rh = hasher.hash(buf.array(), offsets);
                    long kh = TypedRowHasher.combined(hasher.valueHashes(), keyIndex);
                    if (buckets == null || buckets.contains(bucket(kh))) {
                        visitor.row(row, kh, rh);
                    }
                }
            }
        }

        /**
         * Re-snapshots {@code buckets}: their source rows at a position read first, into the log (and the versioned
         * table) at the hand-over version; served keys the source lacks as deletes at that version.
         */
        private Map<String, Object> repair(Set<Integer> buckets) {
            for (SourceColumn k : keyColumns) {
                if (k.nullable()) {
                    throw unusable("repair needs NOT NULL unique-key columns (as the snapshot hand-over does); "
                        + k.name() + " is nullable");
                }
            }
            for (String c : columns) {
                if (!logTypes.containsKey(c)) {
                    throw unusable("column " + c + " is not a column of the CDC log; nothing was repaired");
                }
            }
            String pr = position();
            String version = CdcServing.snapshotVersion(pr).toString();
            String runId = (String) report.get("run_id");
            String batch = "dpone-cdc-verify-repair-" + runId;
            List<Object[]> kept = new ArrayList<>();
            Set<Long> sourceKeys = new HashSet<>();
            scanSource(buckets, (row, kh, rh) -> {
                kept.add(row.clone());
                sourceKeys.add(kh);
            });
            List<Long> extra = new ArrayList<>();
            hashes.keys(buckets).forEach(kh -> {
                if (!sourceKeys.contains(kh)) {
                    extra.add(kh);
                }
            });
            ServingRepair repair = new ServingRepair(ch);
            ServingRepair.Stamp stamp = new ServingRepair.Stamp(pr, MAX_SEQUENCE, version, runId, batch);
            if (!kept.isEmpty()) {
                insertRows(repair, kept, stamp);
            }
            if (!extra.isEmpty()) {
                repair.insertDeletes(log[0], log[1], hashes, logTypes, stamp, extra);
            }
            String applied;
            if (published.incremental()) {
                String versions = CdcServing.versionsTable(target[1]);
                List<String> cols = new ArrayList<>(types(target[0], versions).keySet());
                cols.remove(DELETED);
                repair.copyBatchToVersions(target[0], versions, cols, log[0], log[1], batch);
                applied = "versions_table";
            } else {
                Map<String, Object> m = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(
                    o.stream().targetDataset(), o.servingDataset(), o.stream().uniqueKeys(),
                    CdcMaterializer.DeleteMode.valueOf(published.deleteMode())), null);
                if (!Boolean.TRUE.equals(m.get("passed"))) {
                    @SuppressWarnings("unchecked")
                    List<Blocker> b = (List<Blocker>) m.get("blockers");
                    throw new DponeException(b);
                }
                applied = "rebuild";
            }
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("position", pr);
            r.put("version", version);
            r.put("buckets", List.copyOf(buckets));
            r.put("rows_written", kept.size());
            r.put("deletes_written", extra.size());
            r.put("batch_id", batch);
            r.put("applied_to", applied);
            return r;
        }

        /** The kept source rows into the log through a RowBinary transfer file ({@code insertFile}). */
        private void insertRows(ServingRepair repair, List<Object[]> kept, ServingRepair.Stamp stamp) {
            String runId = stamp.runId();
            List<SourceColumn> nullable = table.columns().stream().map(c -> new SourceColumn(c.name(), c.sourceType(),
                true, c.type(), c.readSql(), c.policy())).toList();
            RowBinaryEncoder encoder = new RowBinaryEncoder(nullable);
            String eventColumn = free("dpone_verify_event_id");
            List<CatalogueReads.Column> structure = nullable.stream()
                .map(c -> new CatalogueReads.Column(c.name(), c.clickHouseType())).toList();
            Path spool = spoolDir.resolve("cdc-verify-" + runId + ".rowbinary");
            try {
                Files.createDirectories(spoolDir);
                try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(spool))) {
                    ByteBuf buf = new ByteBuf(4096);
                    int i = 0;
                    for (Object[] row : kept) {
                        buf.reset();
                        encoder.encode(row, buf);
                        RowBinaryEncoder.writeString(CdcHashes.sha256Hex(runId + ":insert:" + i++), buf);
                        out.write(buf.array(), 0, buf.length());
                    }
                }
                repair.loadRows(log[0], log[1], structure, eventColumn, stamp, spool);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                try {
                    Files.deleteIfExists(spool);
                } catch (IOException e) {
                    // a leftover transfer file only costs disk
                }
            }
        }

        private String free(String name) {
            Set<String> taken = new HashSet<>();
            columns.forEach(c -> taken.add(c.toLowerCase(Locale.ROOT)));
            String n = name;
            for (int i = 1; taken.contains(n); i++) {
                n = name + "_" + i;
            }
            return n;
        }

        private DponeException invalid(String subject, String message) {
            return new DponeException(new Blocker(INVALID_ARGUMENT, subject, message, Map.of()));
        }

        private DponeException unusable(String message) {
            return new DponeException(new Blocker(SERVING_UNUSABLE, o.servingDataset(), message, Map.of()));
        }
    }

    /** {@code Nullable(T)} -> {@code T}. */
    static String bare(String type) {
        return type.startsWith("Nullable(") ? type.substring(9, type.length() - 1) : type;
    }

    private static String[] dataset(String dataset, String subject) {
        String[] p = dataset == null ? new String[0] : dataset.split("\\.", -1);
        if (p.length != 2 || !Identifier.valid(p[0]) || !Identifier.valid(p[1])) {
            throw new DponeException(new Blocker(INVALID_ARGUMENT, subject, "a dataset is db.table, both identifiers",
                Map.of()));
        }
        return p;
    }

    /** One source row with its key hash and row hash. */
    @FunctionalInterface
    interface RowVisitor {
        void row(Object[] row, long keyHash, long rowHash);
    }
}
