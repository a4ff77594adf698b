package io.dpone.format;

import io.dpone.source.types.DateType;
import io.dpone.source.types.TimeType;
import io.dpone.source.types.TimestampType;
import io.dpone.source.types.ValueOutOfRangeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;

/**
 * The TabSeparated text of dates ({@code YYYY-MM-DD}, within the Date32 range) and timestamps
 * ({@code YYYY-MM-DD hh:mm:ss[.f...]}, within the DateTime64 range, exactly the column's fractional digits).
 */
final class TsvDateText {
    private TsvDateText() {
    }

    static void date(LocalDate d, ByteBuf out) {
        if (d.isBefore(DateType.MIN) || d.isAfter(DateType.MAX)) {
            throw new ValueOutOfRangeException("date outside the Date32 range 1900-01-01..2299-12-31");
        }
        ymd(d.getYear(), d.getMonthValue(), d.getDayOfMonth(), out);
    }

    /** {@code YYYY-MM-DD hh:mm:ss[.f...]} with exactly the column's fractional digits. */
    static void timestamp(TimestampType t, LocalDateTime v, ByteBuf out) {
        int year = v.getYear();
        if (year < 1900 || year > 2299) {
            throw new ValueOutOfRangeException("timestamp outside the DateTime64 range 1900..2299");
        }
        int precision = t.precision();
        int nano = v.getNano();
        int divisor = divisor(precision);
        if (nano % divisor != 0) {
            throw new ValueOutOfRangeException("timestamp has more fractional digits than precision " + precision);
        }
        ymd(year, v.getMonthValue(), v.getDayOfMonth(), out);
        out.writeByte(' ');
        clock(v.getHour(), v.getMinute(), v.getSecond(), nano, precision, divisor, out);
    }

    /** {@code hh:mm:ss[.f...]} with exactly the column's fractional digits (Time64's text form). */
    static void time(TimeType t, LocalTime v, ByteBuf out) {
        int precision = t.precision();
        int divisor = divisor(precision);
        if (v.getNano() % divisor != 0) {
            throw new ValueOutOfRangeException("time has more fractional digits than precision " + precision);
        }
        clock(v.getHour(), v.getMinute(), v.getSecond(), v.getNano(), precision, divisor, out);
    }

    private static void clock(int hour, int minute, int second, int nano, int precision, int divisor, ByteBuf out) {
        two(hour, out);
        out.writeByte(':');
        two(minute, out);
        out.writeByte(':');
        two(second, out);
        if (precision > 0) {
            out.writeByte('.');
            int fraction = nano / divisor;
            int at = out.reserve(precision);
            byte[] a = out.array();
            for (int p = at + precision - 1; p >= at; p--) {
                a[p] = (byte) ('0' + fraction % 10);
                fraction /= 10;
            }
        }
    }

    /** 10^(9 - precision): the nanoseconds of one tick. */
    private static int divisor(int precision) {
        int divisor = 1;
        for (int i = precision; i < 9; i++) {
            divisor *= 10;
        }
        return divisor;
    }

    private static void ymd(int year, int month, int day, ByteBuf out) {
        out.writeByte('0' + year / 1000);
        out.writeByte('0' + year / 100 % 10);
        two(year % 100, out);
        out.writeByte('-');
        two(month, out);
        out.writeByte('-');
        two(day, out);
    }

    private static void two(int v, ByteBuf out) {
        out.writeByte('0' + v / 10);
        out.writeByte('0' + v % 10);
    }
}
