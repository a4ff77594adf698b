package io.dpone.route;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseOperations;
import io.dpone.clickhouse.KeyHashes;
import io.dpone.clickhouse.KeyIslands;
import io.dpone.clickhouse.MetadataColumns;
import io.dpone.clickhouse.TableAdmin;
import io.dpone.quality.TypedRowHasher;
import io.dpone.source.SourceColumn;
import io.dpone.source.SourceTable;
import io.dpone.source.types.IntegerType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Chunk-level resume: the staging table an earlier attempt of this run id left behind (killed, or stopped at a chunk
 * boundary by a graceful shutdown) is kept when it is exactly the table this attempt would create, and the attempt
 * then loads only the source rows whose key it does not hold yet: the key ranges (or the part of a range) already
 * staged are read but not loaded again.
 *
 * <p>The rows are recognised by key, not by chunk or range number: chunks are not reproducible (parallel readers
 * interleave their rows, and nothing orders a range read), while every row an earlier attempt of this run loaded is a
 * complete source row of this run's generation, whichever chunk it came in and whether that chunk's insert finished.
 * So the key must identify a row: the primary key, every column of it selected and NOT NULL, of any type. A
 * single-column integer key is held as runs of consecutive values ({@link KeyIslands}, 16 bytes per run); any other
 * key as the sorted 64-bit typed hashes of the staged keys ({@link KeyHashes}, 8 bytes per staged row). The source is
 * still read in full: every row goes to the gates' source-side evidence, so the gates compare the whole table with
 * the whole staging table, kept rows included (a kept row changed or deleted in the source since fails them).
 * Anything else (no such key, another shape, too many islands or staged rows) drops the leftover and loads from the
 * first chunk, with a note saying why.
 */
final class StagingResume {
    /** At most this many runs of consecutive keys are held (16 bytes each): 64 MiB. */
    static final int MAX_ISLANDS = 4_000_000;
    /** At most this many staged key hashes are held (8 bytes each): 64 MiB. */
    static final int MAX_HASHED_KEYS = 8_000_000;

    /** What was kept: which source rows are staged already, and the rows and inserts kept. */
    record Kept(ChunkProducer.Staged staged, long rows, long inserts) {
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
        List<SourceColumn> key = keyColumns(run.table());
        String refused = refusal(run, admin, ch, db, table, comment.get(), key, orderBy);
        ChunkProducer.Staged staged = null;
        if (refused == null) {
            List<Integer> at = key.stream().map(c -> run.table().columns().indexOf(c)).toList();
            if (key.size() == 1 && key.get(0).type() instanceof IntegerType) {
                int index = at.get(0);
                Optional<KeyIslands> islands = KeyIslands.read(ch, db, table, key.get(0).name(), MAX_ISLANDS);
                staged = islands.<ChunkProducer.Staged>map(k -> (row, encoded, offsets) ->
                    k.contains(((Number) row[index]).longValue())).orElse(null);
                refused = islands.isEmpty() ? "its keys form more than " + MAX_ISLANDS + " runs of consecutive values"
                    : null;
            } else {
                Optional<KeyHashes> hashes = KeyHashes.read(ch, db, table,
                    key.stream().map(SourceColumn::name).toList(), MAX_HASHED_KEYS);
                int[] columns = at.stream().mapToInt(Integer::intValue).toArray();
                TypedRowHasher hasher = new TypedRowHasher(run.table().columns());
                staged = hashes.<ChunkProducer.Staged>map(h -> (row, encoded, offsets) ->
                    h.contains(hasher.hash(encoded, offsets, columns))).orElse(null);
                refused = hashes.isEmpty() ? "it holds more than " + MAX_HASHED_KEYS + " rows" : null;
            }
        }
        if (refused != null) {
            admin.drop(db, table);
            run.addNote("staging left by an earlier attempt of this run was dropped and the table is loaded from the "
                + "first chunk: " + refused);
            return Optional.empty();
        }
        ClickHouseOperations.StagedLoads loads = ch.operations().stagedLoads(db, table);
        return Optional.of(new Kept(staged, loads.rows(), loads.inserts()));
    }

    /** Why the leftover cannot be resumed from, or null when it can. */
    private static String refusal(TransferRun run, TableAdmin admin, ClickHouseEndpoint ch, String db, String table,
                                  String comment, List<SourceColumn> key, List<String> orderBy) {
        if (!comment.equals(run.plan().generationComment())) {
            return "it belongs to another run";
        }
        if (key.isEmpty()) {
            return "the source has no primary key whose columns are all selected and NOT NULL";
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

    /** The resumable key: the primary key's columns when every one is selected and NOT NULL, else empty. */
    static List<SourceColumn> keyColumns(SourceTable table) {
        List<SourceColumn> key = new ArrayList<>();
        for (String name : table.primaryKey()) {
            Optional<SourceColumn> c = table.columns().stream()
                .filter(s -> s.name().equalsIgnoreCase(name) && !s.nullable()).findFirst();
            if (c.isEmpty()) {
                return List.of();
            }
            key.add(c.get());
        }
        return key;
    }
    private static List<String> columns(ClickHouseEndpoint ch, String db, String table) {
        return ch.operations().columns(db, table).stream().map(c -> c.name() + " " + compact(c.type())).toList();
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
