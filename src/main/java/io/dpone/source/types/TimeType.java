package io.dpone.source.types;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalTime;

/**
 * TIME(n) as ClickHouse's {@code Time64(n)}: ticks of 10^-n s since midnight, an Int64 in RowBinary and in memory,
 * so {@code time(7)} keeps its 100 ns ticks. Every SQL Server time (00:00:00 .. 23:59:59.9999999) fits; a value
 * with more fractional digits than the precision (only a change event could carry one) is refused.
 *
 * <p>Why {@code Time64} and not Int64 ticks: the embedded engine (chDB 26.5) and the ClickHouse twin over it create,
 * load and hash {@code Time64(7)} columns natively ({@code enable_time_time64_type} is on by default there), and a
 * reader gets a time, not a number. A server older than 25.6 has no {@code Time64}: the staging DDL fails there with
 * ClickHouse's unknown-type error, and the way out is to leave the column out ({@code source.columns}) or cast it in a
 * view (docs/type-mapping.md).
 */
public record TimeType(int precision) implements ColumnType {
    public TimeType {
        if (precision < 0 || precision > 9) {
            throw new IllegalArgumentException("unsupported time precision");
        }
    }

    @Override
    public String clickHouseType() {
        return "Time64(" + precision + ")";
    }

    @Override
    public Object read(ResultSet rs, int index) throws SQLException {
        LocalTime t = rs.getObject(index, LocalTime.class);
        return t == null ? null : checked(t);
    }

    /** A {@code LocalTime} or ISO text ({@code 23:59:59.9999999}). */
    @Override
    public Object coerce(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof LocalTime t) {
            return checked(t);
        }
        if (value instanceof String s) {
            try {
                return checked(LocalTime.parse(s));
            } catch (java.time.format.DateTimeParseException e) {
                throw new ValueOutOfRangeException("value is not an ISO time (hh:mm:ss[.fffffff])");
            }
        }
        throw new ValueOutOfRangeException("value is not a time");
    }

    private LocalTime checked(LocalTime t) {
        if (t.getNano() % TimestampType.pow10(9 - precision) != 0) {
            throw new ValueOutOfRangeException("time has more fractional digits than precision " + precision);
        }
        return t;
    }

    /** Ticks of 10^-precision seconds since midnight, as Time64 stores them. */
    public long ticks(LocalTime t) {
        return t.toSecondOfDay() * TimestampType.pow10(precision) + t.getNano() / TimestampType.pow10(9 - precision);
    }
}
