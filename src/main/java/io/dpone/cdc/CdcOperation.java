package io.dpone.cdc;

import java.util.Arrays;
import java.util.Optional;

/**
 * A change operation. {@link #rank()} follows SQL Server's {@code __$operation} codes (1 delete, 2 insert,
 * 3 update before-image, 4 update after-image; a merged {@code update} ranks as an after-image): it orders events
 * that share a position and sequence and is the last component of the row version.
 */
public enum CdcOperation {
    insert(2), update(4), delete(1), update_before(3), update_after(4);

    private final int rank;

    CdcOperation(int rank) {
        this.rank = rank;
    }

    public int rank() {
        return rank;
    }

    /** The operation named exactly {@code name} (lower case, as in the events JSON). */
    public static Optional<CdcOperation> named(String name) {
        return Arrays.stream(values()).filter(o -> o.name().equals(name)).findFirst();
    }
}
