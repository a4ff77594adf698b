package io.dpone.cdc.mssql;

import io.dpone.cdc.CdcPosition;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * A SQL Server log sequence number: {@code BINARY(10)}, compared byte by byte (unsigned), which is the numeric
 * order of the 80-bit big-endian value. Written as {@code 0x} + 20 lower-case hex digits, a {@link CdcPosition}.
 */
public record Lsn(BigInteger value) implements Comparable<Lsn> {
    public static final int BYTES = 10;
    private static final BigInteger LIMIT = BigInteger.ONE.shiftLeft(BYTES * 8);

    public Lsn {
        if (value.signum() < 0 || value.compareTo(LIMIT) >= 0) {
            throw new IllegalArgumentException("an LSN is an unsigned 80-bit value");
        }
    }

    /** The LSN in {@code bytes}, or null for SQL NULL. Shorter arrays are right-aligned (leading zero bytes). */
    public static Lsn of(byte[] bytes) {
        return bytes == null ? null : new Lsn(new BigInteger(1, bytes));
    }

    public static Lsn of(CdcPosition position) {
        return new Lsn(position.value());
    }

    public static Lsn parse(String text) {
        return of(CdcPosition.of(text));
    }

    public boolean isZero() {
        return value.signum() == 0;
    }

    public byte[] bytes() {
        byte[] raw = value.toByteArray();
        byte[] out = new byte[BYTES];
        int n = Math.min(raw.length, BYTES);
        System.arraycopy(raw, raw.length - n, out, BYTES - n, n);
        return out;
    }

    /** The LSN just below this one (every LSN at or below it is before this one). */
    public Lsn previous() {
        return new Lsn(value.subtract(BigInteger.ONE));
    }

    public Lsn next() {
        return new Lsn(value.add(BigInteger.ONE));
    }

    public String hex() {
        return "0x" + HexFormat.of().formatHex(bytes());
    }

    @Override
    public int compareTo(Lsn o) {
        return value.compareTo(o.value);
    }

    @Override
    public String toString() {
        return hex();
    }

    static String hex(byte[] bytes) {
        return bytes == null ? null : "0x" + HexFormat.of().formatHex(bytes);
    }

    static boolean same(byte[] a, byte[] b) {
        return Arrays.equals(a, b);
    }
}
