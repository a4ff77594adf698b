package io.dpone.clickhouse.cdc;

import static io.dpone.clickhouse.cdc.VersionedColumns.COMMIT_TIME;
import static io.dpone.clickhouse.cdc.VersionedColumns.DELETED;
import static io.dpone.clickhouse.cdc.VersionedColumns.VERSION;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import java.time.Instant;
import java.util.List;

/**
 * Keeping a versioned table compact: its active parts, {@code OPTIMIZE TABLE ... FINAL}, and the keys whose latest
 * change is a delete committed before a cutoff (counted, then deleted with every row of the key, so no older version
 * can resurface). After a merge into one part each key has one row and a filter finds them; otherwise they are found
 * by {@code argMax} per key (a {@code GROUP BY} over the table).
 */
public final class VersionedCompaction {
    private final ClickHouseEndpoint ch;
    private final String database;
    private final String table;
    private final List<String> by;

    /** The active parts of the table, the rows they store (every version) and the rows of the largest one. */
    public record Parts(long active, long rows, long largest) {
    }

    /** The table {@code database.table}, whose keys are {@code by}. */
    public VersionedCompaction(ClickHouseEndpoint ch, String database, String table, List<String> by) {
        this.ch = ch;
        this.database = database;
        this.table = table;
        this.by = List.copyOf(by);
    }

    public Parts parts() {
        List<String> r = ch.query("SELECT count(), sum(rows), max(rows) FROM system.parts WHERE database = "
            + ClickHouseSql.literal(database) + " AND table = " + ClickHouseSql.literal(table) + " AND active").get(0);
        long parts = Long.parseLong(r.get(0));
        return new Parts(parts, parts == 0 ? 0 : Long.parseLong(r.get(1)), parts == 0 ? 0 : Long.parseLong(r.get(2)));
    }

    /** {@code OPTIMIZE TABLE ... FINAL}. */
    public void optimizeFinal() {
        ch.execute("OPTIMIZE TABLE " + ClickHouseSql.table(database, table) + " FINAL");
    }

    /** The rows of the keys whose latest change is a delete committed before {@code cutoff}. */
    public long expiredDeletes(boolean onePart, Instant cutoff) {
        return Long.parseLong(ch.query("SELECT count() FROM " + ClickHouseSql.table(database, table) + " WHERE "
            + expired(onePart, cutoff)).get(0).get(0));
    }

    /** Deletes the rows {@link #expiredDeletes} counts (a synchronous mutation). */
    public void purgeExpiredDeletes(boolean onePart, Instant cutoff) {
        ch.execute("ALTER TABLE " + ClickHouseSql.table(database, table) + " DELETE WHERE " + expired(onePart, cutoff)
            + " SETTINGS mutations_sync = 2");
    }

    private String expired(boolean onePart, Instant cutoff) {
        String before = "toDateTime64(" + ClickHouseSql.literal(cutoff.toString().replace("T", " ").replace("Z", ""))
            + ", 3, 'UTC')";
        if (onePart) {
            return ClickHouseSql.id(DELETED) + " = 1 AND " + ClickHouseSql.id(COMMIT_TIME) + " < " + before;
        }
        String keys = ClickHouseSql.idList(by);
        return "(" + keys + ") IN (SELECT " + keys + " FROM " + ClickHouseSql.table(database, table) + " GROUP BY "
            + keys + " HAVING argMax(" + ClickHouseSql.id(DELETED) + ", " + ClickHouseSql.id(VERSION) + ") = 1 AND "
            + "argMax(" + ClickHouseSql.id(COMMIT_TIME) + ", " + ClickHouseSql.id(VERSION) + ") < " + before + ")";
    }
}
