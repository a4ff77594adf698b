package io.dpone.source.types;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;

/** DATE as Date32 (1900-01-01 .. 2299-12-31); dates outside that range are refused, never clamped. */
public record DateType() implements ColumnType {
    public static final LocalDate MIN = LocalDate.of(1900, 1, 1);
    public static final LocalDate MAX = LocalDate.of(2299, 12, 31);

    @Override
    public String clickHouseType() {
        return "Date32";
    }

    @Override
    public Object read(ResultSet rs, int index) throws SQLException {
        LocalDate d = rs.getObject(index, LocalDate.class);
        if (d != null && (d.isBefore(MIN) || d.isAfter(MAX))) {
            throw new ValueOutOfRangeException("date outside the Date32 range 1900-01-01..2299-12-31");
        }
        return d;
    }
}
