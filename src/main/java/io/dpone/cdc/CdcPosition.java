package io.dpone.cdc;

import java.math.BigInteger;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A position in a change stream: a SQL Server LSN written as hex ({@code 0x0000002A000001F80003}) or a Change
 * Tracking version written in decimal ({@code 1042}). Positions compare by numeric value, never as strings:
 * {@code 0xf < 0x10} although {@code "0xf" > "0x10"} as text.
 */
public record CdcPosition(String text, BigInteger value) implements Comparable<CdcPosition> {
    private static final Pattern HEX = Pattern.compile("0[xX][0-9A-Fa-f]{1,64}");
    private static final Pattern DECIMAL = Pattern.compile("[0-9]{1,78}");

    /** The position written as {@code text}, or empty when it is neither {@code 0x}-hex nor decimal digits. */
    public static Optional<CdcPosition> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        if (HEX.matcher(text).matches()) {
            return Optional.of(new CdcPosition(text, new BigInteger(text.substring(2), 16)));
        }
        if (DECIMAL.matcher(text).matches()) {
            return Optional.of(new CdcPosition(text, new BigInteger(text)));
        }
        return Optional.empty();
    }

    /**
     * As {@link #parse}, for text already validated by a reader. A batch carries many events at one position (all
     * rows of one LSN), and every comparison and version asks again, so the last parsed position is kept, per thread
     * (threads hashing different slices of a batch would otherwise evict each other's).
     */
    public static CdcPosition of(String text) {
        Parsed last = LAST_PARSED.get();
        if (last != null && last.position.text.equals(text)) {
            return last.position;
        }
        CdcPosition p = parse(text).orElseThrow(() -> new IllegalArgumentException(
            "a CDC position is 0x-prefixed hex or decimal digits"));
        LAST_PARSED.set(new Parsed(p, "0x" + p.value.toString(16)));
        return p;
    }

    /** Numeric comparison of two position texts. */
    public static int compare(String a, String b) {
        return of(a).compareTo(of(b));
    }

    /** {@code 0x} + lower-case hex without leading zeros: equal for {@code 0x11}, {@code 0x0011} and {@code 17}. */
    public String canonical() {
        Parsed last = LAST_PARSED.get();
        if (last != null && last.position.equals(this)) {
            return last.canonical;
        }
        return "0x" + value.toString(16);
    }

    /** The last position {@link #of} parsed, with its canonical text. */
    private record Parsed(CdcPosition position, String canonical) {
    }

    private static final ThreadLocal<Parsed> LAST_PARSED = new ThreadLocal<>();

    @Override
    public int compareTo(CdcPosition other) {
        return value.compareTo(other.value);
    }
}
