package io.dpone.format;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/** A growable little-endian byte buffer reused across rows, so encoding allocates nothing per value. */
public final class ByteBuf {
    private byte[] data;
    private int length;

    public ByteBuf(int initialCapacity) {
        data = new byte[Math.max(16, initialCapacity)];
    }

    public void reset() {
        length = 0;
    }

    public int length() {
        return length;
    }

    public byte[] array() {
        return data;
    }

    private void ensure(int extra) {
        if (length + extra > data.length) {
            data = Arrays.copyOf(data, Math.max(data.length * 2, length + extra));
        }
    }

    public void writeByte(int b) {
        ensure(1);
        data[length++] = (byte) b;
    }

    public void writeIntLE(int v) {
        ensure(4);
        data[length++] = (byte) v;
        data[length++] = (byte) (v >>> 8);
        data[length++] = (byte) (v >>> 16);
        data[length++] = (byte) (v >>> 24);
    }

    public void writeLongLE(long v) {
        ensure(8);
        for (int i = 0; i < 8; i++) {
            data[length++] = (byte) (v >>> (8 * i));
        }
    }

    /** ClickHouse's unsigned LEB128 length prefix. */
    public void writeVarUInt(long v) {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            data[length++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        data[length++] = (byte) v;
    }

    public void write(byte[] bytes, int offset, int count) {
        ensure(count);
        System.arraycopy(bytes, offset, data, length, count);
        length += count;
    }

    /** Reserves {@code count} bytes and returns their offset (for length-prefixed writes). */
    int reserve(int count) {
        ensure(count);
        int at = length;
        length += count;
        return at;
    }

    void truncate(int newLength) {
        length = newLength;
    }

    public void writeTo(OutputStream out) throws IOException {
        out.write(data, 0, length);
    }
}
