package io.dpone.testing.mssql.tds;

/** Faults the wire injects on request (set through the engine's {@code sp_twin_fault}); each is taken once. */
public interface WireFaults {
    /** Rows after which the next result drops the connection, or -1. */
    int takeDropAfterRows();

    /** Milliseconds the next request stalls before it is answered, or 0. */
    long takeStallMillis();

    WireFaults NONE = new WireFaults() {
        @Override
        public int takeDropAfterRows() {
            return -1;
        }

        @Override
        public long takeStallMillis() {
            return 0;
        }
    };
}
