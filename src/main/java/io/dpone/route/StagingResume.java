package io.dpone.route;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.KeyIslands;
import io.dpone.clickhouse.MetadataColumns;
import io.dpone.clickhouse.TableAdmin;
import io.dpone.quality.SourceStatsCollector;
import io.dpone.source.SourceColumn;
import io.dpone.source.SourceTable;
import io.dpone.source.types.IntegerType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Chunk-level resume: the staging table an earlier attempt of this run id left behind (killed, or stopped at a chunk
 * boundary by a graceful shutdown) is kept when it is exactly the table this attempt would create, and the attempt
 * then loads only the source rows whose key it does not hold yet.
 *
 * <p>The rows are recognised by key, not by chunk number: chunks are not reproducible (parallel readers interleave
 * their rows, and nothing orders a range read), while every row an earlier attempt of this run loaded is a complete
 * source row of this run's generation, whichever chunk it came in and whether that chunk's insert finished. So the
 * key must identify a row: a single-column, NOT NULL, integer primary key, the same key the parallel readers split
 * on. The source is still read in full: every row goes to the gates' source-side evidence, so the gates compare the
 * whole table with the whole staging table, kept rows included (a kept row changed or deleted in the source since
 * fails them). Anything else (no such key, another shape, too many key islands) drops the leftover and loads from
 * the first chunk, with a note saying why.
 */
final class StagingResume {
    /** At most this many runs of consecutive keys are held (16 bytes each): 64 MiB. */
    static final int MAX_ISLANDS = 4_000_000;

    /** What was kept: the staged keys, where the key sits in a source row, and the rows and inserts kept. */
    record Kept(KeyIslands keys, int keyIndex, long rows, long inserts) {
        /** Whether a source row is already staged. */
        Predicate<Object[]> staged() {
            return row -> keys.contains(((Number) row[keyIndex]).longValue());
        }
    }

    private StagingResume() {
    }

    /**
     * Keeps this run's leftover staging table when it can resume from it, otherwise drops it (a no-op when there is
     * none). {@code orderBy}: the sort key this attempt would create the table with.
     */
    static Optional<Kept> keepOrDrop(TransferRun run, ClickHouseEndpoint ch, List<String> orderBy) {
        String db = run.plan().manifest().sink().stagingSchema();
        String table = run.stagingTable();
        TableAdmin admin = new TableAdmin(ch);
        Optional<String> comment = admin.comment(db, table);
        if (comment.isEmpty()) {
            return Optional.empty();
        }
        SourceColumn key = keyColumn(run.table());
        String refused = refusal(run, admin, ch, db, table, comment.get(), key, orderBy);
        Optional<KeyIslands> keys = Optional.empty();
        if (refused == null) {
            keys = KeyIslands.read(ch, db, table, key.name(), MAX_ISLANDS);
            if (keys.isEmpty()) {
                refused = "its keys form more than " + MAX_ISLANDS + " runs of consecutive values";
            }
        }
        if (refused != null) {
            admin.drop(db, table);
            run.addNote("staging left by an earlier attempt of this run was dropped and the table is loaded from the "
                + "first chunk: " + refused);
            return Optional.empty();
        }
        List<String> counts = ch.query("SELECT count(), uniqExact(" + ClickHouseSql.id(MetadataColumns.LOAD_ID) + ", "
            + ClickHouseSql.id(MetadataColumns.LOADED_AT) + ") FROM " + ClickHouseSql.table(db, table)).get(0);
        return Optional.of(new Kept(keys.get(), run.table().columns().indexOf(key),
            Long.parseLong(counts.get(0)), Long.parseLong(counts.get(1))));
    }

    /** Why the leftover cannot be resumed from, or null when it can. */
    private static String refusal(TransferRun run, TableAdmin admin, ClickHouseEndpoint ch, String db, String table,
                                  String comment, SourceColumn key, List<String> orderBy) {
        if (!comment.equals(run.plan().generationComment())) {
            return "it belongs to another run";
        }
        if (key == null) {
            return "the source has no single-column NOT NULL integer primary key among the selected columns";
        }
        if (!columns(ch, db, table).equals(expectedColumns(run.table()))) {
            return "its columns differ from the source's now";
        }
        if (!admin.sortingKey(db, table).map(StagingResume::compact).orElse("")
                .equals(compact(String.join(",", orderBy)))) {
            return "its sort key differs from the manifest's now";
        }
        return null;
    }

    /** The resumable key: the single-column NOT NULL integer primary key, or null. */
    static SourceColumn keyColumn(SourceTable table) {
        String name = SourceStatsCollector.uniqueKey(table);
        if (name == null) {
            return null;
        }
        return table.columns().stream().filter(c -> c.name().equals(name) && c.type() instanceof IntegerType)
            .findFirst().orElse(null);
    }

    private static List<String> columns(ClickHouseEndpoint ch, String db, String table) {
        return ch.query("SELECT name, type FROM system.columns WHERE database = " + ClickHouseSql.literal(db)
            + " AND table = " + ClickHouseSql.literal(table) + " ORDER BY position").stream()
            .map(r -> r.get(0) + " " + compact(r.get(1))).toList();
    }

    private static List<String> expectedColumns(SourceTable source) {
        List<String> expected = new ArrayList<>();
        source.columns().forEach(c -> expected.add(c.name() + " " + compact(c.clickHouseType())));
        List<String> types = MetadataColumns.types();
        for (int i = 0; i < MetadataColumns.NAMES.size(); i++) {
            expected.add(MetadataColumns.NAMES.get(i) + " " + compact(types.get(i)));
        }
        return expected;
    }

    /** Text without blanks, brackets or backticks: how ClickHouse prints a type or key does not matter here. */
    private static String compact(String text) {
        return text.replaceAll("[\\s`()]", "");
    }
}
