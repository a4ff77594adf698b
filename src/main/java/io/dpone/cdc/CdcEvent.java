package io.dpone.cdc;

import java.math.BigInteger;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One change of one source row. {@code position} is the change-stream position (LSN hex or version), compared
 * numerically; {@code sequence} orders changes inside one position (for SQL Server CDC: the ordinal of
 * {@code __$command_id}, {@code __$seqval} within the LSN; never {@code __$seqval} alone across LSNs).
 */
public record CdcEvent(CdcOperation operation, String position, long sequence, String sourceSchema,
                       String sourceTable, Map<String, Object> data, Map<String, Object> metadata) {
    /** Change order: position (numeric), then sequence, then operation rank. */
    public static final Comparator<CdcEvent> ORDER =
        (a, b) -> compare(a.positionValue().value(), a, b.positionValue().value(), b);

    private static final int SEQUENCE_BITS = 64;
    private static final int OPERATION_BITS = 3;

    public CdcEvent {
        // a reader's RowValues is read-only and the event's own (taken as it is); any other map is copied
        data = data instanceof RowValues ? data
            : Collections.unmodifiableMap(new LinkedHashMap<>(data == null ? Map.of() : data));
        metadata = metadata instanceof RowValues ? metadata
            : Collections.unmodifiableMap(new LinkedHashMap<>(metadata == null ? Map.of() : metadata));
        if (sequence < 0) {
            throw new IllegalArgumentException("sequence must not be negative");
        }
    }

    /**
     * {@link #ORDER} with both positions already parsed (a caller that keeps the parsed position of a running minimum
     * or maximum saves parsing it again for every comparison).
     */
    public static int compare(BigInteger aPosition, CdcEvent a, BigInteger bPosition, CdcEvent b) {
        int c = aPosition.compareTo(bPosition);
        if (c != 0) {
            return c;
        }
        c = Long.compare(a.sequence(), b.sequence());
        return c != 0 ? c : Integer.compare(a.operation().rank(), b.operation().rank());
    }

    public CdcPosition positionValue() {
        return CdcPosition.of(position);
    }

    /**
     * The row version: {@code position * 2^67 + sequence * 2^3 + operation rank}. It grows strictly with
     * {@link #ORDER}, across batches and runs, and never depends on a clock.
     */
    public BigInteger version() {
        return positionValue().value().shiftLeft(SEQUENCE_BITS + OPERATION_BITS)
            .add(BigInteger.valueOf(sequence).shiftLeft(OPERATION_BITS))
            .add(BigInteger.valueOf(operation.rank()));
    }
}
