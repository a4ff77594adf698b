package io.dpone.source.types;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * DATETIME2(n), DATETIME, SMALLDATETIME and DATETIMEOFFSET(n) as DateTime64(n, 'UTC'). DATETIME2(7) keeps its
 * 100 ns ticks; DATETIMEOFFSET is normalised to UTC. Values outside 1900..2299 are refused, unless the column's
 * declared value policy says otherwise ({@link ValueOutOfRangeException#nearest()}: 1900-01-01 00:00, or
 * {@link #max()}).
 */
public record TimestampType(int precision, boolean withOffset) implements ColumnType {
    private static final LocalDateTime MIN = LocalDateTime.of(1900, 1, 1, 0, 0);
    private static final LocalDateTime MAX = LocalDateTime.of(2299, 12, 31, 23, 59, 59, 999_999_999);

    public TimestampType {
        if (precision < 0 || precision > 9) {
            throw new IllegalArgumentException("unsupported timestamp precision");
        }
    }

    @Override
    public String clickHouseType() {
        return "DateTime64(" + precision + ", 'UTC')";
    }

    @Override
    public Object read(ResultSet rs, int index) throws SQLException {
        LocalDateTime t;
        if (withOffset) {
            OffsetDateTime o = rs.getObject(index, OffsetDateTime.class);
            t = o == null ? null : o.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
        } else {
            t = rs.getObject(index, LocalDateTime.class);
        }
        return t == null ? null : checked(t);
    }

    /**
     * A {@code LocalDateTime} (UTC), an {@code OffsetDateTime} (normalised to UTC), or ISO text: without an offset
     * for DATETIME2/DATETIME ({@code 2024-01-02T03:04:05.1234567}), with one for DATETIMEOFFSET.
     */
    @Override
    public Object coerce(Object value) {
        if (value == null) {
            return null;
        }
        LocalDateTime t;
        try {
            if (value instanceof LocalDateTime l) {
                t = l;
            } else if (value instanceof OffsetDateTime o) {
                t = o.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
            } else if (value instanceof String s) {
                t = withOffset ? OffsetDateTime.parse(s).withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime()
                    : LocalDateTime.parse(s);
            } else {
                throw new ValueOutOfRangeException("value is not a timestamp");
            }
        } catch (java.time.format.DateTimeParseException e) {
            throw new ValueOutOfRangeException("value is not an ISO timestamp" + (withOffset ? " with an offset" : ""));
        }
        return checked(t);
    }

    private LocalDateTime checked(LocalDateTime t) {
        if (t.isBefore(MIN) || t.isAfter(MAX)) {
            throw new ValueOutOfRangeException("timestamp outside the DateTime64 range 1900..2299",
                t.isBefore(MIN) ? MIN : max());
        }
        if (t.getNano() % pow10(9 - precision) != 0) {
            throw new ValueOutOfRangeException("timestamp has more fractional digits than precision " + precision);
        }
        return t;
    }

    /** The last instant the column can hold: 2299-12-31 23:59:59 with every fractional digit of its precision 9. */
    public LocalDateTime max() {
        return MAX.withNano(MAX.getNano() / (int) pow10(9 - precision) * (int) pow10(9 - precision));
    }

    /** Ticks of 10^-precision seconds since the epoch, as DateTime64 stores them. */
    public long ticks(LocalDateTime t) {
        long seconds = t.toEpochSecond(ZoneOffset.UTC);
        return seconds * pow10(precision) + t.getNano() / pow10(9 - precision);
    }

    private static final long[] POW10 = {1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L, 10_000_000L,
        100_000_000L, 1_000_000_000L};

    static long pow10(int n) {
        return POW10[n];
    }
}
