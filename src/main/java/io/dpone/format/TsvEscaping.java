package io.dpone.format;

/**
 * ClickHouse's TabSeparated escapes: backslash, tab, newline, carriage return, NUL, backspace and form feed become
 * a backslash and one ASCII letter or digit; every other byte, UTF-8 continuation bytes included, is copied as is.
 */
final class TsvEscaping {
    private static final byte[] ESCAPE = new byte[128];

    static {
        ESCAPE['\\'] = '\\';
        ESCAPE['\t'] = 't';
        ESCAPE['\n'] = 'n';
        ESCAPE['\r'] = 'r';
        ESCAPE['\0'] = '0';
        ESCAPE['\b'] = 'b';
        ESCAPE['\f'] = 'f';
    }

    private TsvEscaping() {
    }

    /** Strict UTF-8 (unpaired surrogates refused), then escaped in place: escapes are all ASCII bytes. */
    static void string(String s, ByteBuf out) {
        int start = out.length();
        int n = Utf8.encode(s, out);
        byte[] a = out.array();
        int extra = 0;
        for (int i = start; i < start + n; i++) {
            byte c = a[i];
            if (c >= 0 && ESCAPE[c] != 0) {
                extra++;
            }
        }
        if (extra == 0) {
            return;
        }
        out.reserve(extra);
        a = out.array();
        int dst = start + n + extra;
        for (int src = start + n - 1; src >= start; src--) {
            byte c = a[src];
            byte e = c >= 0 ? ESCAPE[c] : 0;
            if (e != 0) {
                a[--dst] = e;
                a[--dst] = '\\';
            } else {
                a[--dst] = c;
            }
        }
    }

    /** Appends {@code count} bytes of {@code src} from {@code offset}, escaped (binary strings). */
    static void escaped(byte[] src, int offset, int count, ByteBuf out) {
        int at = out.reserve(2 * count);
        byte[] a = out.array();
        int p = at;
        for (int i = offset; i < offset + count; i++) {
            byte c = src[i];
            byte e = c >= 0 ? ESCAPE[c] : 0;
            if (e != 0) {
                a[p++] = '\\';
                a[p++] = e;
            } else {
                a[p++] = c;
            }
        }
        out.truncate(p);
    }
}
