package io.dpone.clickhouse.cdc;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The rows of one CDC log table {@code db.table}: a batch's spool file inserted in one synchronous, token-deduplicated
 * statement, the event ids held in a version range, and the row count. The table's DDL is {@link CdcLogDdl}'s.
 */
public final class CdcLogRows {
    /** The metadata columns a batch insert fills with one value for the whole batch, after the file's columns. */
    public static final List<String> BATCH_COLUMNS = List.of("dpone_cdc_commit_time", "dpone_cdc_run_id",
        "dpone_cdc_batch_id");

    private final ClickHouseEndpoint ch;
    private final String database;
    private final String table;

    /** An event the log holds, and the batch that wrote it. */
    public record HeldEvent(String eventId, String batchId) {
    }

    /** A column of a spool file, with its file-side type (which equals the table's). */
    public record FileColumn(String name, String type) {
    }

    /**
     * A batch's spool file: its {@code format}, its columns in file order, and
     * the values every row of the batch gets: the commit time ({@code yyyy-MM-dd HH:mm:ss.SSS} UTC), the run and the
     * batch id, which is also the insert's deduplication token.
     */
    public record BatchFile(Path file, String format, List<FileColumn> columns, String commitTime, String runId,
                            String batchId) {
    }

    /** @throws IllegalArgumentException when {@code database} or {@code table} is not an identifier */
    public CdcLogRows(ClickHouseEndpoint ch, String database, String table) {
        ClickHouseSql.table(database, table);
        this.ch = ch;
        this.database = database;
        this.table = table;
    }

    /**
     * {@code INSERT INTO log (file columns, batch columns) SELECT file columns, commit time, run, batch FROM <file>}
     * with {@code insert_deduplicate = 1, async_insert = 0, insert_deduplication_token = <batch id>}: a retried
     * insert whose acknowledgement was lost lands once.
     */
    public void insert(BatchFile batch) {
        List<String> fileColumns = batch.columns().stream().map(FileColumn::name).toList();
        String structure = batch.columns().stream().map(c -> ClickHouseSql.id(c.name()) + " " + c.type())
            .collect(Collectors.joining(", "));
        List<String> columns = new ArrayList<>(fileColumns);
        columns.addAll(BATCH_COLUMNS);
        String select = ClickHouseSql.idList(fileColumns) + ", toDateTime64("
            + ClickHouseSql.literal(batch.commitTime()) + ", 3, 'UTC'), " + ClickHouseSql.literal(batch.runId()) + ", " + ClickHouseSql.literal(batch.batchId());
        ch.insertFile(new ClickHouseEndpoint.InsertFile(ClickHouseSql.table(database, table),
            ClickHouseSql.idList(columns), select, batch.file(), batch.format(), structure,
            "insert_deduplicate = 1, async_insert = 0, insert_deduplication_token = "
                + ClickHouseSql.literal(batch.batchId())));
    }

    /**
     * The events whose {@code dpone_cdc_version} is in {@code [min, max]} (both ends inclusive), each with one batch
     * that wrote it, in one query.
     */
    public List<HeldEvent> heldBetween(BigInteger min, BigInteger max) {
        return ch.query("SELECT dpone_cdc_event_id, any(dpone_cdc_batch_id) FROM "
            + ClickHouseSql.table(database, table) + " WHERE dpone_cdc_version >= toUInt256(" + ClickHouseSql.literal(min.toString()) + ")"
            + " AND dpone_cdc_version <= toUInt256(" + ClickHouseSql.literal(max.toString()) + ")"
            + " GROUP BY dpone_cdc_event_id").stream().map(r -> new HeldEvent(r.get(0), r.get(1))).toList();
    }

    /** The log's rows. */
    public long count() {
        return Long.parseLong(ch.query("SELECT count() FROM " + ClickHouseSql.table(database, table) + " WHERE 1")
            .get(0).get(0));
    }
}
