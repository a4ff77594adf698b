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
        data = data instanceof Owned ? data
            : Collections.unmodifiableMap(new LinkedHashMap<>(data == null ? Map.of() : data));
        metadata = metadata instanceof Owned ? metadata
            : Collections.unmodifiableMap(new LinkedHashMap<>(metadata == null ? Map.of() : metadata));
        if (sequence < 0) {
            throw new IllegalArgumentException("sequence must not be negative");
        }
    }

    /**
     * A read-only view of {@code map} that an event takes as it is instead of copying it: for a reader that builds a
     * fresh map per change and hands it over (it must not keep or change {@code map} afterwards). A reader of many
     * changes saves a map copy per change; any other map passed to the constructor is still copied.
     */
    public static Map<String, Object> handOver(LinkedHashMap<String, Object> map) {
        return new Owned(map);
    }

    /** The read-only view {@link #handOver} returns. */
    private static final class Owned extends java.util.AbstractMap<String, Object> {
        private final Map<String, Object> map;

        Owned(LinkedHashMap<String, Object> map) {
            this.map = Collections.unmodifiableMap(map);
        }

        @Override
        public Object get(Object key) {
            return map.get(key);
        }

        @Override
        public boolean containsKey(Object key) {
            return map.containsKey(key);
        }

        @Override
        public int size() {
            return map.size();
        }

        @Override
        public java.util.Set<String> keySet() {
            return map.keySet();
        }

        @Override
        public java.util.Collection<Object> values() {
            return map.values();
        }

        @Override
        public java.util.Set<Entry<String, Object>> entrySet() {
            return map.entrySet();
        }

        @Override
        public void forEach(java.util.function.BiConsumer<? super String, ? super Object> action) {
            map.forEach(action);
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
