package io.dpone.testing.mssql.tds;

import java.nio.charset.StandardCharsets;

/** Little-endian reads over one client message's payload; a read past its end is a protocol error. */
final class PayloadReader {
    private final byte[] b;
    private int p;

    PayloadReader(byte[] b) {
        this.b = b;
    }

    PayloadReader(byte[] b, int position) {
        this.b = b;
        this.p = position;
    }

    int position() {
        return p;
    }

    void position(int position) {
        this.p = position;
    }

    boolean hasMore() {
        return p < b.length;
    }

    int remaining() {
        return b.length - p;
    }

    private void need(int n) {
        if (n < 0 || p + n > b.length) {
            throw new TdsProtocolException("message ends inside a field");
        }
    }

    int u8() {
        need(1);
        return b[p++] & 0xFF;
    }

    int u16() {
        need(2);
        int v = (b[p] & 0xFF) | ((b[p + 1] & 0xFF) << 8);
        p += 2;
        return v;
    }

    int i32() {
        return u16() | (u16() << 16);
    }

    long u32() {
        return i32() & 0xFFFFFFFFL;
    }

    long i64() {
        return (i32() & 0xFFFFFFFFL) | ((long) i32() << 32);
    }

    byte[] bytes(int n) {
        need(n);
        byte[] r = new byte[n];
        System.arraycopy(b, p, r, 0, n);
        p += n;
        return r;
    }

    void skip(int n) {
        need(n);
        p += n;
    }

    String ucs2(int chars) {
        need(chars * 2);
        String s = new String(b, p, chars * 2, StandardCharsets.UTF_16LE);
        p += chars * 2;
        return s;
    }

    String bVarchar() {
        return ucs2(u8());
    }

    String usVarchar() {
        return ucs2(u16());
    }
}
