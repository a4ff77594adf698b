package io.dpone.clickhouse.cdc;

import static io.dpone.clickhouse.cdc.VersionedColumns.OPERATION;
import static io.dpone.clickhouse.cdc.VersionedColumns.VERSION;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import java.util.List;

/**
 * A CDC log read by version, as incremental serving reads it: the minmax skip index on the version, the rows and
 * highest version above an applied version, where a batch of about n rows ends, and the rows of a version range
 * {@code (lo, hi]}. Versions are UInt256 in decimal text; a {@code lo} of null means from the first row.
 */
public final class LogVersions {
    /** The minmax skip index the log gets so a range above the applied version skips the older granules. */
    public static final String VERSION_INDEX = "dpone_cdc_version_minmax";

    private final ClickHouseEndpoint ch;
    private final String database;
    private final String table;
    private final String log;

    public LogVersions(ClickHouseEndpoint ch, String database, String table) {
        this.ch = ch;
        this.database = database;
        this.table = table;
        this.log = ClickHouseSql.table(database, table);
    }

    /** The rows of a range and their highest version (decimal text; empty or null when there is no row). */
    public record Range(long rows, String max) {
    }

    /** Whether the log has the {@link #VERSION_INDEX} skip index. */
    public boolean hasVersionIndex() {
        return !ch.query("SELECT 1 FROM system.data_skipping_indices WHERE database = " + ClickHouseSql.literal(database)
            + " AND table = " + ClickHouseSql.literal(table) + " AND name = " + ClickHouseSql.literal(VERSION_INDEX))
            .isEmpty();
    }

    /** Adds the {@link #VERSION_INDEX} skip index and materializes it for the parts already written (synchronously). */
    public void addVersionIndex() {
        ch.execute("ALTER TABLE " + log + " ADD INDEX IF NOT EXISTS " + ClickHouseSql.id(VERSION_INDEX) + " "
            + ClickHouseSql.id(VERSION) + " TYPE minmax GRANULARITY 1");
        ch.execute("ALTER TABLE " + log + " MATERIALIZE INDEX " + ClickHouseSql.id(VERSION_INDEX)
            + " SETTINGS mutations_sync = 2");
    }

    /** The rows above {@code from} (every row when it is null) and their highest version. */
    public Range above(String from) {
        List<String> r = ch.query("SELECT count(), toString(max(" + ClickHouseSql.id(VERSION) + ")) FROM " + log
            + (from == null ? "" : " WHERE " + after(from))).get(0);
        return new Range(Long.parseLong(r.get(0)), r.get(1));
    }

    /** The highest version of the first {@code rows} rows of {@code (lo, bound]}, or {@code bound} when it holds fewer. */
    public String batchEnd(String lo, String bound, long rows) {
        List<String> r = ch.query("SELECT toString(max(" + ClickHouseSql.id(VERSION) + ")), count() FROM ("
            + "SELECT " + ClickHouseSql.id(VERSION) + " FROM " + log + " WHERE " + (lo == null ? ""
                : after(lo) + " AND ") + atMost(bound) + " ORDER BY " + ClickHouseSql.id(VERSION)
            + " LIMIT " + rows + ")").get(0);
        return Long.parseLong(r.get(1)) < rows ? bound : r.get(0);
    }

    /**
     * {@code SELECT carried FROM log WHERE version in (lo, hi] AND operation != 'update_before'}: the changes of a
     * range, the before-images left out.
     */
    public String rows(List<String> carried, String lo, String hi) {
        String where = (lo == null ? "" : after(lo) + " AND ") + atMost(hi) + " AND "
            + ClickHouseSql.id(OPERATION) + " != 'update_before'";
        return "SELECT " + ClickHouseSql.idList(carried) + " FROM " + log + " WHERE " + where;
    }

    private static String after(String version) {
        return ClickHouseSql.id(VERSION) + " > toUInt256(" + ClickHouseSql.literal(version) + ")";
    }

    private static String atMost(String version) {
        return ClickHouseSql.id(VERSION) + " <= toUInt256(" + ClickHouseSql.literal(version) + ")";
    }
}
