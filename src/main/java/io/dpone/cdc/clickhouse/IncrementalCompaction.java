package io.dpone.cdc.clickhouse;

import io.dpone.cdc.clickhouse.CdcMaterializer.Incremental;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.cdc.VersionedCompaction;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Background merges are not relied on: when the versioned table's active parts exceed {@code compact_max_parts} or
 * the rows outside the largest part exceed {@code compact_max_unmerged_share} of the stored rows (or always, or
 * never), {@code OPTIMIZE TABLE ... FINAL} merges it, then keys whose latest change is a delete older than the
 * tombstone retention are purged (every row of the key, so no older version can resurface). The statements are
 * {@link VersionedCompaction}'s.
 */
final class IncrementalCompaction {
    private final VersionedCompaction table;
    private final Incremental settings;

    IncrementalCompaction(ClickHouseEndpoint ch, String database, String versions, List<String> by,
                          Incremental settings) {
        this.table = new VersionedCompaction(ch, database, versions, by);
        this.settings = settings;
    }

    /** Compacts when the thresholds say so; puts the parts after into {@code after}; returns what it did. */
    Map<String, Object> run(Map<String, Object> after) {
        Map<String, Object> before = parts();
        long partsBefore = (Long) before.get("active_parts");
        long rows = (Long) before.get("rows_stored");
        double share = rows == 0 ? 0 : (Long) before.get("rows_outside_largest_part") / (double) rows;
        String reason = switch (settings.compact()) {
            case never -> null;
            case always -> "always";
            case auto -> partsBefore > settings.compactMaxParts() ? "parts"
                : share > settings.compactMaxUnmergedShare() ? "unmerged_share" : null;
        };
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ran", reason != null);
        m.put("reason", reason);
        m.put("parts_before", partsBefore);
        m.put("unmerged_share_before", Math.round(share * 10000) / 10000.0);
        if (reason == null) {
            after.putAll(before);
            return m;
        }
        long t0 = System.nanoTime();
        table.optimizeFinal();
        m.put("optimize_ms", (System.nanoTime() - t0) / 1_000_000);
        Map<String, Object> merged = parts();
        long purged = purge((Long) merged.get("active_parts") == 1);
        m.put("rows_purged", purged);
        after.putAll(purged > 0 ? parts() : merged);
        m.put("tombstone_retention", settings.tombstoneRetention() == null ? null
            : settings.tombstoneRetention().toString());
        m.put("millis", (System.nanoTime() - t0) / 1_000_000);
        return m;
    }

    /** Active parts, rows stored (every version) and rows outside the largest part (the un-merged delta). */
    private Map<String, Object> parts() {
        VersionedCompaction.Parts p = table.parts();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("active_parts", p.active());
        m.put("rows_stored", p.rows());
        m.put("rows_outside_largest_part", p.rows() - p.largest());
        return m;
    }

    /**
     * Purges the keys whose latest change is a delete older than the retention, every row of them. After a merge
     * into one part each key has one row, so a filter finds them (a scan of two columns); otherwise the keys are
     * found by {@code argMax} per key (a {@code GROUP BY} over the table: 48 s for 10M keys here).
     */
    private long purge(boolean onePart) {
        if (settings.tombstoneRetention() == null) {
            return 0;
        }
        Instant cutoff = Instant.now().minus(settings.tombstoneRetention());
        long n = table.expiredDeletes(onePart, cutoff);
        if (n > 0) {
            table.purgeExpiredDeletes(onePart, cutoff);
        }
        return n;
    }
}
