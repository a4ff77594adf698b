package io.dpone.route;

import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.manifest.BatchManifest;
import io.dpone.source.SourceColumn;
import io.dpone.source.SourceTable;
import java.util.ArrayList;
import java.util.List;

/**
 * The columns a manifest names beyond {@code source.columns} ({@code quality.distinct_columns},
 * {@code sink.options.order_by}) checked against the described source table before anything is written: a name
 * that is not a selected column is a typed blocker at its manifest path, all of them at once, never a check
 * silently skipped (a distinct gate over an unknown column used to report "skipped").
 */
final class NamedColumns {
    private NamedColumns() {
    }

    static void check(BatchManifest m, SourceTable table) {
        List<Blocker> blockers = new ArrayList<>();
        List<String> distinct = m.quality().distinctColumns();
        for (int i = 0; i < distinct.size(); i++) {
            if (column(table, distinct.get(i)) == null) {
                blockers.add(Blocker.of(BlockerCode.MANIFEST_INVALID_VALUE, "quality.distinct_columns[" + i + "]",
                    "distinct column '" + distinct.get(i) + "' is not a selected source column"));
            }
        }
        List<String> orderBy = m.sink().options().orderBy();
        for (int i = 0; i < orderBy.size(); i++) {
            SourceColumn c = column(table, orderBy.get(i));
            if (c == null || c.nullable()) {
                blockers.add(Blocker.of(BlockerCode.MANIFEST_INVALID_VALUE, "sink.options.order_by[" + i + "]",
                    "order_by column '" + orderBy.get(i) + "' is not a selected non-nullable source column"));
            }
        }
        if (!blockers.isEmpty()) {
            throw new DponeException(blockers);
        }
    }

    static SourceColumn column(SourceTable table, String name) {
        return table.columns().stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst().orElse(null);
    }
}
