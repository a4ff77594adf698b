package io.dpone.format;

import io.dpone.source.types.ValueOutOfRangeException;

/**
 * Strict UTF-8 encoding straight into a {@link ByteBuf}. Hand-written because the JDK encoders either replace
 * unpaired surrogates with '?' silently ({@code getBytes}) or allocate per call ({@code CharsetEncoder}); a
 * transfer must refuse a string it cannot carry exactly, and must not allocate per value.
 */
final class Utf8 {
    private Utf8() {
    }

    /** Upper bound of the encoded size of {@code s}. */
    static int maxBytes(String s) {
        return s.length() * 3;
    }

    /** Encodes {@code s} at the end of {@code out}; returns the number of bytes written. */
    static int encode(String s, ByteBuf out) {
        int start = out.reserve(maxBytes(s));
        byte[] a = out.array();
        int p = start;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                a[p++] = (byte) c;
            } else if (c < 0x800) {
                a[p++] = (byte) (0xC0 | (c >> 6));
                a[p++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                a[p++] = (byte) (0xF0 | (cp >> 18));
                a[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                a[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                a[p++] = (byte) (0x80 | (cp & 0x3F));
            } else if (Character.isSurrogate(c)) {
                throw new ValueOutOfRangeException("text contains an unpaired UTF-16 surrogate");
            } else {
                a[p++] = (byte) (0xE0 | (c >> 12));
                a[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                a[p++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        out.truncate(p);
        return p - start;
    }
}
