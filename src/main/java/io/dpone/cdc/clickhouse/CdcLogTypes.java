package io.dpone.cdc.clickhouse;

import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.StreamIdentity;
import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import io.dpone.source.SourceColumn;
import io.dpone.source.types.ColumnType;
import io.dpone.source.types.DecimalType;
import io.dpone.source.types.FloatType;
import io.dpone.source.types.IntegerType;
import io.dpone.source.types.TimeType;
import io.dpone.source.types.TimestampType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which payload columns of a CDC log insert are typed, and how the batch's columns evolve the ones the log recorded.
 * A new log is typed when the batch knows its columns' SQL Server types; a log created without them stays JSON text.
 * On a typed log a batch without types is written with the log's types; a batch with types is compared with them
 * (docs/cdc.md, "Schema changes"):
 * <ul>
 *   <li>a column added: added to the log, recorded nullable (earlier rows hold no value);</li>
 *   <li>a column dropped: no longer written; it stays in the log (NULL in later rows), recorded nullable;</li>
 *   <li>a column widened (a type that holds every value of the recorded one, or NOT NULL to NULL): the log column is
 *       altered to the new type; NULL to NOT NULL keeps the recorded (nullable) column;</li>
 *   <li>any other retype (a narrowing, another type family), or any change of a unique-key column (dropped or
 *       retyped): {@code cdc_runtime.schema_changed} naming the column and the way out, and nothing is written.</li>
 * </ul>
 */
final class CdcLogTypes {
    private CdcLogTypes() {
    }

    /**
     * The types to write with (empty map: JSON text) and the recorded columns to alter before the write (a widened
     * type, or a dropped or retyped column that becomes nullable), in the log's column order.
     */
    record Resolution(Map<String, SourceColumn> types, List<SourceColumn> alter) {
    }

    /** The types to write with (empty map: JSON text), or {@code schema_changed}. */
    static Map<String, SourceColumn> resolve(StreamIdentity stream, Optional<CdcLogTable.Shape> log,
                                             List<SourceColumn> batchColumns) {
        return evolve(stream, log, batchColumns).types();
    }

    /** The types to write with and the columns to alter, or {@code schema_changed} (nothing is written). */
    static Resolution evolve(StreamIdentity stream, Optional<CdcLogTable.Shape> log, List<SourceColumn> batchColumns) {
        Map<String, SourceColumn> batch = new LinkedHashMap<>();
        batchColumns.forEach(c -> batch.put(c.name(), c));
        if (log.isEmpty()) {
            return new Resolution(batch, List.of());
        }
        CdcLogTable.Shape shape = log.get();
        if (shape.hasJsonTextPayload()) {
            // created before types were known: stays JSON text (docs/cdc-clickhouse.md)
            return new Resolution(Map.of(), List.of());
        }
        if (batch.isEmpty()) {
            return new Resolution(shape.typed(), List.of());
        }
        List<Blocker> changes = new ArrayList<>();
        List<SourceColumn> alter = new ArrayList<>();
        Map<String, SourceColumn> types = new LinkedHashMap<>(batch);
        shape.typed().forEach((name, recorded) -> {
            SourceColumn now = batch.get(name);
            boolean key = stream.uniqueKeys().contains(name);
            if (now == null) {
                if (key) {
                    changes.add(changed(stream, name, "is a unique key and was dropped at the source", recorded, null));
                } else {
                    if (!recorded.nullable()) {
                        alter.add(nullable(recorded)); // kept, and NULL in the rows written from now on
                    }
                    types.put(name, nullable(recorded));
                }
            } else if (now.type().equals(recorded.type())) {
                if (now.nullable() != recorded.nullable()) {
                    if (key) {
                        changes.add(changed(stream, name, "is a unique key and changed from " + describe(recorded)
                            + " to " + describe(now), recorded, now));
                    } else if (now.nullable()) {
                        alter.add(now); // NOT NULL to NULL: the column allows NULL from now on
                    } else {
                        types.put(name, recorded); // NULL to NOT NULL: earlier rows may hold NULL, the column stays
                    }
                }
            } else if (key) {
                changes.add(changed(stream, name, "is a unique key and changed from " + describe(recorded) + " to "
                    + describe(now), recorded, now));
            } else if (widens(recorded.type(), now.type())) {
                SourceColumn widened = recorded.nullable() && !now.nullable() ? nullable(now) : now;
                alter.add(widened);
                types.put(name, widened);
            } else {
                changes.add(changed(stream, name, "changed from " + describe(recorded) + " to " + describe(now)
                    + ", which does not hold every value the log holds", recorded, now));
            }
        });
        batch.forEach((name, now) -> {
            if (!shape.typed().containsKey(name) && !now.nullable()) {
                types.put(name, nullable(now)); // earlier rows have no value: the added column allows NULL
            }
        });
        if (!changes.isEmpty()) {
            throw new DponeException(changes);
        }
        return new Resolution(types, List.copyOf(alter));
    }

    /**
     * Whether {@code to} holds every value of {@code from} and ClickHouse alters one into the other in place:
     * a wider integer (an unsigned one only into a wider signed one), a decimal with at least as many digits on
     * both sides of the point, {@code real} to {@code float}, a finer {@code datetime2}/{@code datetimeoffset} or
     * {@code time}.
     */
    static boolean widens(ColumnType from, ColumnType to) {
        if (from instanceof IntegerType a && to instanceof IntegerType b) {
            return a.unsigned() == b.unsigned() ? b.bits() >= a.bits() : a.unsigned() && b.bits() > a.bits();
        }
        if (from instanceof DecimalType a && to instanceof DecimalType b) {
            return b.scale() >= a.scale() && b.precision() - b.scale() >= a.precision() - a.scale();
        }
        if (from instanceof FloatType a && to instanceof FloatType b) {
            return b.bits() >= a.bits();
        }
        if (from instanceof TimestampType a && to instanceof TimestampType b) {
            return a.withOffset() == b.withOffset() && b.precision() >= a.precision();
        }
        if (from instanceof TimeType a && to instanceof TimeType b) {
            return b.precision() >= a.precision();
        }
        return false;
    }

    private static SourceColumn nullable(SourceColumn c) {
        return new SourceColumn(c.name(), c.sourceType(), true, c.type());
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
            + stream.pipelineName() + ": column " + column + " " + what + "; nothing was applied. If the change is "
            + "meant to stay, hand the table over anew: run its batch manifest with a cdc block naming a new pipeline "
            + "and a new log_dataset (dpone run MANIFEST --run-id NEW_RUN_ID), then tick that stream (docs/cdc.md, "
            + "\"Schema changes\")", details);
    }
}
