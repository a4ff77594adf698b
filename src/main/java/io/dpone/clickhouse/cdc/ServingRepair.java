package io.dpone.clickhouse.cdc;

import io.dpone.clickhouse.CatalogueReads;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The writes of {@code cdc-verify --repair}: re-snapshotted source rows into the CDC log from a RowBinary transfer
 * file, deletes of served keys the source lacks, and a repair batch copied from the log into an incremental target's
 * versioned table. Every row carries the log's metadata columns ({@link #META}) with one {@link Stamp}.
 */
public final class ServingRepair {
    /** The log's metadata columns a repair row fills, in order. */
    public static final List<String> META = List.of("dpone_cdc_unique_key_hash", "dpone_cdc_event_id",
        "dpone_cdc_operation", "dpone_cdc_position", "dpone_cdc_sequence", "dpone_cdc_version",
        "dpone_cdc_commit_time", "dpone_cdc_run_id", "dpone_cdc_batch_id");
    private static final String OP = "dpone_cdc_operation";
    private static final String BATCH = "dpone_cdc_batch_id";
    private static final String DELETED = "dpone_cdc_deleted";
    private static final int DELETES_PER_STATEMENT = 10_000;

    private final ClickHouseEndpoint ch;

    /**
     * What every repair row records: the position read, its sequence and version (decimal text: the hand-over's), the
     * run and the repair batch.
     */
    public record Stamp(String position, String sequence, String version, String runId, String batch) {
    }

    public ServingRepair(ClickHouseEndpoint ch) {
        this.ch = ch;
    }

    /**
     * Inserts the rows of a RowBinary {@code spool} into the log: each row is {@code structure} (the source columns,
     * Nullable) then its event id (a String column named {@code eventColumn}), stamped as an {@code insert}.
     */
    public void loadRows(String logDatabase, String logTable, List<CatalogueReads.Column> structure,
                           String eventColumn, Stamp stamp, Path spool) {
        List<String> columns = structure.stream().map(CatalogueReads.Column::name).toList();
        List<String> parts = new ArrayList<>();
        for (CatalogueReads.Column c : structure) {
            parts.add(ClickHouseSql.id(c.name()) + " " + c.type());
        }
        parts.add(ClickHouseSql.id(eventColumn) + " String");
        List<String> into = new ArrayList<>(columns);
        into.addAll(META);
        String select = ClickHouseSql.idList(columns) + ", '', " + ClickHouseSql.id(eventColumn) + ", 'insert', "
            + metaValues(stamp);
        ch.insertFile(new ClickHouseEndpoint.InsertFile(ClickHouseSql.table(logDatabase, logTable),
            ClickHouseSql.idList(into), select, spool, "RowBinary", String.join(", ", parts), "async_insert = 0"));
    }

    /**
     * Inserts into the log a {@code delete} of each live served row of {@code serving} whose key hash is in
     * {@code keyHashes}: its unique-key values cast to the log's types ({@code keyTypes}), its event id derived from
     * the run and the key hash.
     */
    public void insertDeletes(String logDatabase, String logTable, ServingHashes serving, Map<String, String> keyTypes,
                              Stamp stamp, List<Long> keyHashes) {
        List<String> keys = serving.scope().keyColumns();
        List<String> into = new ArrayList<>(keys);
        into.addAll(META);
        String casts = keys.stream().map(k -> "CAST(" + ClickHouseSql.id(k) + ", " + ClickHouseSql.literal(
            keyTypes.get(k)) + ")").collect(Collectors.joining(", "));
        String keyHash = serving.keyHashSql();
        for (int from = 0; from < keyHashes.size(); from += DELETES_PER_STATEMENT) {
            List<Long> part = keyHashes.subList(from, Math.min(keyHashes.size(), from + DELETES_PER_STATEMENT));
            ch.execute("INSERT INTO " + ClickHouseSql.table(logDatabase, logTable) + " (" + ClickHouseSql.idList(into)
                + ") SELECT " + casts + ", '', lower(hex(SHA256(concat(" + ClickHouseSql.literal(stamp.runId()
                + ":delete:") + ", toString(" + keyHash + "))))), 'delete', " + metaValues(stamp) + " FROM "
                + ClickHouseSql.table(serving.scope().database(), serving.scope().table()) + " WHERE "
                + serving.liveSql() + " AND " + keyHash + " IN (" + part.stream().map(Long::toUnsignedString)
                .collect(Collectors.joining(", ")) + ") SETTINGS async_insert = 0");
        }
    }

    /**
     * Copies the log rows of repair {@code batch} into the versioned table {@code database.versions}: its
     * {@code columns} as they are, the deleted flag from the operation.
     */
    public void copyBatchToVersions(String database, String versions, List<String> columns, String logDatabase,
                                    String logTable, String batch) {
        List<String> into = new ArrayList<>(columns);
        into.add(DELETED);
        ch.execute("INSERT INTO " + ClickHouseSql.table(database, versions) + " (" + ClickHouseSql.idList(into)
            + ") SELECT " + ClickHouseSql.idList(columns) + ", toUInt8(" + ClickHouseSql.id(OP) + " = 'delete') "
            + "FROM " + ClickHouseSql.table(logDatabase, logTable) + " WHERE " + ClickHouseSql.id(BATCH) + " = "
            + ClickHouseSql.literal(batch) + " SETTINGS async_insert = 0");
    }

    private static String metaValues(Stamp s) {
        return ClickHouseSql.literal(s.position()) + ", toUInt64(" + ClickHouseSql.literal(s.sequence())
            + "), toUInt256(" + ClickHouseSql.literal(s.version()) + "), now64(3), " + ClickHouseSql.literal(s.runId())
            + ", " + ClickHouseSql.literal(s.batch());
    }
}
