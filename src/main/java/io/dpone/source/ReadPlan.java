package io.dpone.source;

import io.dpone.source.types.IntegerType;
import java.util.List;
import java.util.Optional;

/**
 * How a snapshot is read: one reader, or key ranges of a single-column integer primary key, each read on its own
 * connection. A split that was asked for but cannot apply falls back to one reader with a {@link #note()} for the
 * run report; it is never an error.
 */
public record ReadPlan(List<KeyRange> ranges, String note) {
    public ReadPlan {
        ranges = List.copyOf(ranges);
    }

    public static ReadPlan single(String note) {
        return new ReadPlan(List.of(), note);
    }

    /**
     * The range of every key of {@code table} when it has a single-column integer primary key among the selected
     * columns (an unsplit read that can resume after a dropped connection), else null.
     */
    public static KeyRange wholeKey(SourceTable table) {
        if (table.primaryKey().size() != 1) {
            return null;
        }
        String key = table.primaryKey().get(0);
        return table.columns().stream().filter(c -> c.name().equalsIgnoreCase(key))
            .filter(c -> c.type() instanceof IntegerType).findFirst()
            .map(c -> new KeyRange(c.name(), null, null)).orElse(null);
    }

    public boolean split() {
        return !ranges.isEmpty();
    }

    /**
     * Plans the read of {@code table}. {@code requested} readers (1: no split); {@code minRows}: split only when the
     * key span (MAX - MIN + 1, for a unique key an upper bound on the rows) reaches it; a row-limited sample
     * ({@code rowLimit > 0}) is read in key order by one reader.
     */
    public static ReadPlan plan(SourceReader reader, SourceTable table, int requested, long minRows, long rowLimit) {
        if (requested <= 1) {
            return single(null);
        }
        String ignored = "parallel_readers: " + requested + " not applied, one reader: ";
        if (rowLimit > 0) {
            return single(ignored + "a row-limited sample is read in key order");
        }
        if (table.primaryKey().size() != 1) {
            return single(ignored + (table.primaryKey().isEmpty() ? "no primary key" : "composite primary key"));
        }
        String key = table.primaryKey().get(0);
        Optional<SourceColumn> column = table.columns().stream().filter(c -> c.name().equalsIgnoreCase(key))
            .findFirst();
        if (column.isEmpty()) {
            return single(ignored + "primary key " + key + " is not a selected column");
        }
        if (!(column.get().type() instanceof IntegerType)) {
            return single(ignored + "primary key " + key + " is not an integer (" + column.get().sourceType() + ")");
        }
        Optional<long[]> bounds = reader.keyBounds(table, column.get().name());
        if (bounds.isEmpty()) {
            return single(ignored + "the table is empty");
        }
        long span = KeyRangeSplitter.span(bounds.get()[0], bounds.get()[1]);
        if (span < minRows) {
            return single(ignored + "key span " + span + " is below parallel_min_rows " + minRows);
        }
        List<KeyRange> ranges = KeyRangeSplitter.split(column.get().name(), bounds.get()[0], bounds.get()[1],
            requested);
        if (ranges.size() < 2) {
            return single(ignored + "key span " + span + " cannot be split");
        }
        return new ReadPlan(ranges, "source read by " + ranges.size() + " readers in key ranges of "
            + column.get().name() + " (" + bounds.get()[0] + ".." + bounds.get()[1] + ")");
    }
}
