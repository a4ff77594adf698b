package io.dpone.source;

/** A forward-only stream of source rows as canonical values (see {@code ColumnType}). */
public interface RowCursor extends AutoCloseable {
    /** Fills {@code row} with the next row's values; returns false at the end. */
    boolean next(Object[] row);

    @Override
    void close();
}
