package io.dpone.clickhouse.cdc;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.TableStatsReader;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The serving side of {@code cdc-verify}, read in ClickHouse: per row a key hash (the typed hash of the unique-key
 * columns, {@link TableStatsReader#rowHash}) and a row hash (of every column), its bucket the top {@code bits} bits of
 * the key hash; only live rows count (those whose {@code deletedColumn} is 0, every row when there is none).
 */
public final class ServingHashes {
    private final ClickHouseEndpoint ch;
    private final Scope scope;
    private final String keyHash;
    private final String rowHash;
    private final String live;

    /**
     * A serving table and how its rows are hashed and bucketed.
     *
     * @param deletedColumn the tombstone flag column, or null when the table has none
     * @param bits          log2 of the bucket count, 0..16
     */
    public record Scope(String database, String table, List<String> keyColumns, List<String> columns,
                        String deletedColumn, int bits) {
        public Scope {
            keyColumns = List.copyOf(keyColumns);
            columns = List.copyOf(columns);
        }
    }

    /** One bucket's live rows: their count and the sums of their key and row hashes (wrapping, unsigned). */
    public record BucketSums(int bucket, long rows, long keySum, long rowSum) {
    }

    /** One live row's hashes. */
    public record RowHashes(long keyHash, long rowHash) {
    }

    public ServingHashes(ClickHouseEndpoint ch, Scope scope) {
        this.ch = ch;
        this.scope = scope;
        this.keyHash = TableStatsReader.rowHash(scope.keyColumns());
        this.rowHash = TableStatsReader.rowHash(scope.columns());
        this.live = scope.deletedColumn() == null ? "1" : ClickHouseSql.id(scope.deletedColumn()) + " = 0";
    }

    /** Every bucket that holds a live row, with its sums. */
    public List<BucketSums> bucketSums() {
        return ch.query("SELECT " + bucket() + ", count(), sum(" + keyHash + "), sum(" + rowHash + ") FROM "
                + table() + " WHERE " + live + " GROUP BY 1").stream()
            .map(r -> new BucketSums(Integer.parseInt(r.get(0)), Long.parseLong(r.get(1)),
                Long.parseUnsignedLong(r.get(2)), Long.parseUnsignedLong(r.get(3)))).toList();
    }

    /** The hashes of every live row in {@code buckets}. */
    public List<RowHashes> rows(Set<Integer> buckets) {
        return ch.query("SELECT " + keyHash + ", " + rowHash + " FROM " + table() + " WHERE " + live + " AND "
                + bucket() + " IN (" + join(buckets) + ")").stream()
            .map(r -> new RowHashes(Long.parseUnsignedLong(r.get(0)), Long.parseUnsignedLong(r.get(1)))).toList();
    }

    /** The key hashes of every live row in {@code buckets}. */
    public List<Long> keys(Set<Integer> buckets) {
        return ch.query("SELECT " + keyHash + " FROM " + table() + " WHERE " + live + " AND " + bucket() + " IN ("
            + join(buckets) + ")").stream().map(r -> Long.parseUnsignedLong(r.get(0))).toList();
    }

    /**
     * The distinct key hashes in {@code buckets} of {@code database.table} (the serving table or its versioned table;
     * deleted rows too) whose {@code versionColumn} lies above {@code version} (a UInt256 in decimal).
     */
    public List<Long> keysAbove(String database, String table, String versionColumn, String version,
                                Set<Integer> buckets) {
        return ch.query("SELECT DISTINCT " + keyHash + " FROM " + ClickHouseSql.table(database, table) + " WHERE "
                + ClickHouseSql.id(versionColumn) + " > toUInt256(" + ClickHouseSql.literal(version) + ") AND "
                + bucket() + " IN (" + join(buckets) + ")").stream().map(r -> Long.parseUnsignedLong(r.get(0)))
            .toList();
    }

    /** The key hash expression, for the repair's deletes of the same rows ({@link ServingRepair}). */
    String keyHashSql() {
        return keyHash;
    }

    /** The live-row filter, for the repair's deletes. */
    String liveSql() {
        return live;
    }

    Scope scope() {
        return scope;
    }

    private String table() {
        return ClickHouseSql.table(scope.database(), scope.table());
    }

    private String bucket() {
        return scope.bits() == 0 ? "0" : "bitShiftRight(" + keyHash + ", " + (64 - scope.bits()) + ")";
    }

    private static String join(Set<Integer> buckets) {
        return buckets.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }
}
