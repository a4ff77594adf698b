package io.dpone.clickhouse;

import io.dpone.quality.TargetStats;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The target side of the quality gates computed part by part while a staging table loads, so the gate query
 * after the last chunk reads only that chunk and the distinct columns instead of the whole table.
 *
 * <p>Sound because the staging table is ours: merges are stopped on it before the first insert
 * ({@code SYSTEM STOP MERGES}), so every insert's part stays as written; each {@link #countNewParts()} reads only
 * the active parts not counted yet ({@code WHERE _part IN (...)}) and adds their additive measures (rows, NULLs,
 * wrap-around hash sums, metadata checks). {@link #finish} counts what is left and compares the table's active
 * parts with the counted ones: equal, the sums are the table's; otherwise (a part merged or removed after all)
 * it falls back to one whole-table read. Distinct counts are not additive: the first sort-key column's is summed
 * from the batches when their key ranges do not overlap ({@link KeyRanges}) and each batch wrote one part, every
 * other one (and that one otherwise) is read over the whole table. Merges are started again in {@link #finish}
 * (or {@link #abandon()}), before the table is published.
 *
 * <p>Where merges cannot be stopped (a server user without the {@code SYSTEM MERGES} grant) or the part count
 * grows past {@link #MAX_PARTS} (ClickHouse delays inserts into a table with too many parts), it gives up and
 * {@link #finish} reads the whole table, as {@link TableStatsReader#read} always did.
 */
public final class PartwiseTableStats {
    /** Well below ClickHouse's {@code parts_to_delay_insert} default (1000). */
    static final int MAX_PARTS = 300;

    private final ClickHouseEndpoint ch;
    private final String database;
    private final String table;
    private final List<String> columns;
    private final List<String> hashedColumns;
    private final String runId;
    private final int sampleModulo;
    private final Set<String> counted = new HashSet<>();
    private TargetStats sum;
    private Boolean metadataPresent;
    private boolean tracking;
    private boolean mergesStopped;
    /** The first sort-key column when it is a distinct column with comparable text, and its batches' ranges. */
    private String keyColumn;
    private KeyRanges keyRanges;

    private PartwiseTableStats(ClickHouseEndpoint ch, String database, String table, List<String> columns,
                               List<String> hashedColumns, String runId, int sampleModulo) {
        this.ch = ch;
        this.database = database;
        this.table = table;
        this.columns = List.copyOf(columns);
        this.hashedColumns = List.copyOf(hashedColumns);
        this.runId = runId;
        this.sampleModulo = sampleModulo;
    }

    /**
     * Starts tracking an empty, just-created table (stops its merges); see the class comment for the limits.
     * {@code distinctColumns}: the gate's distinct columns (their counts come from {@link #finish}).
     */
    public static PartwiseTableStats start(ClickHouseEndpoint ch, String database, String table,
                                           List<String> columns, List<String> hashedColumns, String runId,
                                           int sampleModulo, List<String> distinctColumns) {
        PartwiseTableStats s = new PartwiseTableStats(ch, database, table, columns, hashedColumns, runId,
            sampleModulo);
        TableStatsReader.firstSortKey(ch, database, table).filter(k -> distinctColumns.contains(k.name()))
            .ifPresent(k -> KeyRanges.forType(k.type()).ifPresent(r -> {
                s.keyColumn = k.name();
                s.keyRanges = r;
            }));
        try {
            new TableAdmin(ch).stopMerges(database, table);
            s.mergesStopped = true;
            s.tracking = true;
        } catch (ClickHouseQueryException e) {
            // no SYSTEM MERGES grant: the whole-table read at the end is as correct, only slower
            s.tracking = false;
        }
        return s;
    }

    /** Whether the part-wise sums are still being kept. */
    public boolean tracking() {
        return tracking;
    }

    /** Adds the measures of the parts inserted since the last call. */
    public void countNewParts() {
        if (!tracking) {
            return;
        }
        List<String> parts = activeParts();
        if (parts.size() > MAX_PARTS) {
            abandon();
            return;
        }
        List<String> fresh = parts.stream().filter(p -> !counted.contains(p)).toList();
        if (fresh.isEmpty()) {
            return;
        }
        if (metadataPresent == null) {
            metadataPresent = TableStatsReader.metadataPresent(ch, database, table);
        }
        String where = "_part IN (" + fresh.stream().map(ClickHouseSql::literal).collect(Collectors.joining(", "))
            + ")";
        if (keyRanges != null && fresh.size() > 1) {
            // a statement that wrote many parts (the one-statement pulls: the whole table at once) is no batch of
            // the key: its exact distinct count would hold every key of it in memory (+208 MiB at 5M keys), where
            // the whole-table count at the gate reads the key in order
            keyRanges = null;
        }
        // the batch's key range comes from the same scan as its sums: the new part is read once
        List<String> keyRange = keyRanges == null ? List.of() : List.of("min(" + ClickHouseSql.id(keyColumn) + ")",
            "max(" + ClickHouseSql.id(keyColumn) + ")", "uniqExact(" + ClickHouseSql.id(keyColumn) + ")");
        TableStatsReader.Scan scan = TableStatsReader.scan(ch, database, table, columns, hashedColumns, runId,
            sampleModulo, metadataPresent, where, keyRange);
        if (keyRanges != null) {
            List<String> r = scan.extra();
            keyRanges.add(r.get(0), r.get(1), Long.parseLong(r.get(2)));
        }
        TargetStats s = scan.stats();
        sum = sum == null ? s : sum.plus(s);
        counted.addAll(fresh);
    }

    /** The table's stats (with the distinct counts of {@code distinctColumns}); merges run again afterwards. */
    public TargetStats finish(List<String> distinctColumns) {
        try {
            countNewParts();
            if (tracking && sum != null && counted.equals(new HashSet<>(activeParts()))) {
                return sum.withDistinctCounts(distinctCounts(distinctColumns));
            }
            return TableStatsReader.read(ch, database, table, columns, hashedColumns, runId, sampleModulo,
                distinctColumns);
        } finally {
            abandon();
        }
    }

    /** Distinct counts of a table whose parts were all counted: the sort key's from the batches where it can. */
    private Map<String, Long> distinctCounts(List<String> distinctColumns) {
        OptionalLong keyDistinct = keyRanges != null && distinctColumns.contains(keyColumn)
            ? keyRanges.disjointSum() : OptionalLong.empty();
        if (keyDistinct.isEmpty()) {
            return TableStatsReader.distinctCounts(ch, database, table, distinctColumns);
        }
        Map<String, Long> rest = TableStatsReader.distinctCounts(ch, database, table,
            distinctColumns.stream().filter(c -> !c.equals(keyColumn)).toList());
        Map<String, Long> all = new LinkedHashMap<>();
        for (String c : distinctColumns) {
            all.put(c, c.equals(keyColumn) ? keyDistinct.getAsLong() : rest.get(c));
        }
        return all;
    }

    /** Whether the sort key's distinct count would come from the batches (for tests). */
    boolean keyDistinctFromBatches() {
        return keyRanges != null && keyRanges.disjointSum().isPresent();
    }

    /** Stops tracking and lets merges run again (before the table is published or dropped). */
    public void abandon() {
        tracking = false;
        if (mergesStopped) {
            new TableAdmin(ch).startMerges(database, table);
            mergesStopped = false;
        }
    }

    private List<String> activeParts() {
        return ch.operations().activeParts(database, table);
    }
}
