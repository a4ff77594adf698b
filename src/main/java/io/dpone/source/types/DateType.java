package io.dpone.source.types;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;

/**
 * DATE as Date32 (1900-01-01 .. 2299-12-31); a date outside that range is refused, unless the column's declared
 * value policy says otherwise ({@link ValueOutOfRangeException#nearest()} is the range end it clamps to).
 */
public record DateType() implements ColumnType {
    public static final LocalDate MIN = LocalDate.of(1900, 1, 1);
    public static final LocalDate MAX = LocalDate.of(2299, 12, 31);

    @Override
    public String clickHouseType() {
        return "Date32";
    }

    @Override
    public Object read(ResultSet rs, int index) throws SQLException {
        return checked(rs.getObject(index, LocalDate.class));
    }

    /** A {@code LocalDate} or ISO text ({@code 2024-02-29}). */
    @Override
    public Object coerce(Object value) {
        if (value == null || value instanceof LocalDate) {
            return checked((LocalDate) value);
        }
        if (value instanceof String s) {
            try {
                return checked(LocalDate.parse(s));
            } catch (java.time.format.DateTimeParseException e) {
                throw new ValueOutOfRangeException("value is not an ISO date (yyyy-MM-dd)");
            }
        }
        throw new ValueOutOfRangeException("value is not a date");
    }

    private static LocalDate checked(LocalDate d) {
        if (d != null && (d.isBefore(MIN) || d.isAfter(MAX))) {
            throw new ValueOutOfRangeException("date outside the Date32 range 1900-01-01..2299-12-31",
                d.isBefore(MIN) ? MIN : MAX);
        }
        return d;
    }
}
