package io.dpone.cdc.clickhouse;

import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.StreamIdentity;
import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import io.dpone.source.SourceColumn;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which payload columns of a CDC log insert are typed, and whether the batch's columns still match the ones the
 * log recorded. A new log is typed when the batch knows its columns' SQL Server types; a log created without them
 * stays JSON text. On a typed log a batch without types is written with the log's types; a batch with types must
 * match them: a column dropped or retyped (type or nullability) at the source, or a NOT NULL column added, is
 * {@code cdc_runtime.schema_changed} naming the column, and nothing is written. A nullable column added is added.
 */
final class CdcLogTypes {
    private CdcLogTypes() {
    }

    /** The types to write with (empty map: JSON text), or {@code schema_changed}. */
    static Map<String, SourceColumn> resolve(StreamIdentity stream, Optional<CdcLogTable.Shape> log,
                                             List<SourceColumn> batchColumns) {
        Map<String, SourceColumn> batch = new LinkedHashMap<>();
        batchColumns.forEach(c -> batch.put(c.name(), c));
        if (log.isEmpty()) {
            return batch;
        }
        CdcLogTable.Shape shape = log.get();
        if (shape.hasJsonTextPayload()) {
            return Map.of(); // created before types were known: stays JSON text (docs/cdc-clickhouse.md)
        }
        if (batch.isEmpty()) {
            return shape.typed();
        }
        List<Blocker> changes = new ArrayList<>();
        shape.typed().forEach((name, recorded) -> {
            SourceColumn now = batch.get(name);
            if (now == null) {
                changes.add(changed(stream, name, "was dropped at the source", recorded, null));
            } else if (!now.type().equals(recorded.type()) || now.nullable() != recorded.nullable()) {
                changes.add(changed(stream, name, "changed from " + describe(recorded) + " to " + describe(now),
                    recorded, now));
            }
        });
        batch.forEach((name, now) -> {
            if (!shape.typed().containsKey(name) && !now.nullable()) {
                changes.add(changed(stream, name, "was added as NOT NULL (" + now.sourceType() + "); only nullable "
                    + "columns are added to a log", null, now));
            }
        });
        if (!changes.isEmpty()) {
            throw new DponeException(changes);
        }
        return batch;
    }

    private static String describe(SourceColumn c) {
        return c.sourceType() + (c.nullable() ? " NULL" : " NOT NULL");
    }

    private static Blocker changed(StreamIdentity stream, String column, String what, SourceColumn recorded,
                                   SourceColumn now) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("stream", stream.pipelineName());
        details.put("column", column);
        details.put("recorded", recorded == null ? "absent" : describe(recorded));
        details.put("source", now == null ? "absent" : describe(now));
        return CdcBlockers.blocker(CdcBlockers.SCHEMA_CHANGED, "source.columns." + column, "stream "
            + stream.pipelineName() + ": column " + column + " " + what + "; nothing was applied (docs/cdc.md, "
            + "\"Schema changes\")", details);
    }
}
