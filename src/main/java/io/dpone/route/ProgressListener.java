package io.dpone.route;

/** Receives the running row count of a load (for a terminal progress line or metrics). */
@FunctionalInterface
public interface ProgressListener {
    ProgressListener NONE = rows -> { };

    void rowsRead(long rows);
}
