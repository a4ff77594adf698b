package io.dpone.testing.mssql.tds;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * TDS packet framing (MS-TDS 2.2.3): an 8-byte header (type, status, big-endian length including the header, SPID,
 * packet id, window) before each packet's payload; a message is the packets up to the one with the EOM status bit.
 * Hand-written because no library speaks the server side of TDS.
 */
final class TdsPackets {
    static final int SQL_BATCH = 0x01;
    static final int RPC = 0x03;
    static final int REPLY = 0x04;
    static final int ATTENTION = 0x06;
    static final int TRANSACTION_MANAGER = 0x0E;
    static final int LOGIN7 = 0x10;
    static final int PRELOGIN = 0x12;
    static final int HEADER = 8;
    static final int STATUS_EOM = 0x01;
    /** The largest packet a client may negotiate (32767) is far below this; a longer header is not TDS. */
    private static final int MAX_PACKET = 65536;
    /** A message this large is refused rather than buffered: the twin's requests are small. */
    private static final int MAX_MESSAGE = 256 << 20;

    private TdsPackets() {
    }

    /** Reads one whole message; null at a clean end of stream before its first byte. */
    static TdsMessage read(InputStream in) throws IOException {
        byte[] header = new byte[HEADER];
        if (!readFully(in, header, true)) {
            return null;
        }
        int type = header[0] & 0xFF;
        ByteArrayOutputStream payload = new ByteArrayOutputStream();
        while (true) {
            int length = ((header[2] & 0xFF) << 8) | (header[3] & 0xFF);
            if (length < HEADER || length > MAX_PACKET) {
                throw new IOException("not a TDS packet (length " + length + ")");
            }
            byte[] body = new byte[length - HEADER];
            readFully(in, body, false);
            payload.write(body);
            if (payload.size() > MAX_MESSAGE) {
                throw new IOException("TDS message over " + MAX_MESSAGE + " bytes");
            }
            if ((header[1] & STATUS_EOM) != 0) {
                return new TdsMessage(type, payload.toByteArray());
            }
            readFully(in, header, false);
        }
    }

    /** A packet header for {@code payloadLength} bytes. */
    static byte[] header(int type, boolean eom, int payloadLength, int packetId) {
        int length = payloadLength + HEADER;
        return new byte[] {(byte) type, (byte) (eom ? STATUS_EOM : 0), (byte) (length >>> 8), (byte) length, 0, 0,
            (byte) packetId, 0};
    }

    static boolean readFully(InputStream in, byte[] b, boolean eofAllowedAtStart) throws IOException {
        int off = 0;
        while (off < b.length) {
            int n = in.read(b, off, b.length - off);
            if (n < 0) {
                if (off == 0 && eofAllowedAtStart) {
                    return false;
                }
                throw new EOFException("connection closed inside a TDS packet");
            }
            off += n;
        }
        return true;
    }
}
