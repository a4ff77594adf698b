package io.dpone.source;

import io.dpone.source.types.DateType;
import io.dpone.source.types.DecimalType;
import io.dpone.source.types.IntegerType;
import io.dpone.source.types.StringType;
import io.dpone.source.types.TimestampType;
import io.dpone.source.types.UuidType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * How a snapshot is read: one reader, or ranges of the primary key (any number of columns; integer, decimal, text,
 * {@code uniqueidentifier}, date and date-time columns), each read on its own connection by an index seek. The range
 * bounds come from the clustered index: its statistics histogram where the server gives it, else a sample of its
 * keys; {@code boundaries} keeps what each range was expected to hold. A split that was asked for but cannot apply
 * falls back to one reader with a {@link #note()} for the run report; it is never an error.
 */
public record ReadPlan(List<KeyRange> ranges, KeyBoundaries boundaries, String note) {
    public ReadPlan {
        ranges = List.copyOf(ranges);
    }

    public static ReadPlan single(String note) {
        return new ReadPlan(List.of(), null, note);
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
     * table holds at least that many rows (as the bounds' source counted them); a row-limited sample
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
        if (table.primaryKey().isEmpty()) {
            return single(ignored + "no primary key");
        }
        List<SourceColumn> key = new ArrayList<>();
        for (String name : table.primaryKey()) {
            Optional<SourceColumn> column = table.columns().stream().filter(c -> c.name().equalsIgnoreCase(name))
                .findFirst();
            if (column.isEmpty()) {
                return single(ignored + "primary key column " + name + " is not a selected column");
            }
            String refused = unsplittable(column.get());
            if (refused != null) {
                return single(ignored + "primary key column " + name + " " + refused);
            }
            key.add(column.get());
        }
        java.util.OptionalLong estimate = reader.estimatedRows(table);
        if (estimate.isPresent() && estimate.getAsLong() < minRows) { // no key sample for a table too small to split
            return single(ignored + "about " + estimate.getAsLong() + " rows (the catalogue's estimate) is below "
                + "parallel_min_rows " + minRows);
        }
        Optional<KeyBoundaries> found = reader.keyBoundaries(table, key, requested);
        if (found.isEmpty()) {
            return single(ignored + "the table is empty");
        }
        KeyBoundaries b = found.get();
        if (b.rows() < minRows) {
            return single(ignored + b.rows() + " rows (" + b.source() + ") is below parallel_min_rows " + minRows);
        }
        if (b.cuts().isEmpty()) {
            return single(ignored + "its " + b.rows() + " rows cannot be split (bounds from " + b.source() + ")");
        }
        List<String> names = key.stream().map(SourceColumn::name).toList();
        List<KeyRange> ranges = new ArrayList<>();
        List<Object> from = null;
        for (List<Object> cut : b.cuts()) {
            ranges.add(new KeyRange(names, from, cut));
            from = cut;
        }
        ranges.add(new KeyRange(names, from, null));
        return new ReadPlan(ranges, b, "source read by " + ranges.size() + " readers in key ranges of "
            + String.join(", ", names) + " (bounds from " + b.source() + "; estimated rows per range "
            + join(b.estimatedRows()) + ", spread " + spread(b.spread()) + ")");
    }

    /** Why a primary key column cannot bound key ranges (a clause: "is a real, ..."), or null when it can. */
    public static String unsplittable(SourceColumn c) {
        if (c.readSql() != null) {
            return "is read through a conversion";
        }
        var t = c.type();
        boolean ok = t instanceof IntegerType || t instanceof DecimalType || t instanceof UuidType
            || t instanceof DateType || (t instanceof TimestampType ts && !ts.withOffset())
            || (t instanceof StringType && !c.sourceType().toLowerCase(Locale.ROOT).equals("xml"));
        return ok ? null : "is a " + c.sourceType() + ", which key ranges do not split";
    }

    static String join(long[] rows) {
        return java.util.Arrays.stream(rows).mapToObj(Long::toString).collect(Collectors.joining("/"));
    }

    /** A spread as a person reads it: {@code 1.02}, or {@code inf} when a range is empty. */
    public static String spread(double spread) {
        return Double.isInfinite(spread) ? "inf" : String.format(Locale.ROOT, "%.2f", spread);
    }
}
