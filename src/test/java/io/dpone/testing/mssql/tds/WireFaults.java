package io.dpone.testing.mssql.tds;

/** Faults the wire injects on request (set through the engine's {@code sp_twin_fault}); each is taken once. */
public interface WireFaults {
    /** Rows after which a result drops its connection, or -1; stays set until a result reaches that many. */
    int dropAfterRows();

    /** Clears the drop once a result has reached it. */
    int takeDropAfterRows();

    /** Milliseconds the next request stalls before it is answered, or 0. */
    long takeStallMillis();

    WireFaults NONE = new WireFaults() {
        @Override
        public int dropAfterRows() {
            return -1;
        }

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
