package io.dpone.testing.mssql.tds;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes one server message as TDS packets of the negotiated size: little-endian primitives (MS-TDS 2.2.5.1) go into
 * the current packet, a full packet is sent at once (so a long result streams, and a slow client holds the twin back
 * through TCP as a server is held back), {@link #endMessage()} sends the last one with EOM.
 */
final class TdsWriter {
    private OutputStream out;
    private byte[] packet;
    private int position = TdsPackets.HEADER;
    private int packetId = 1;
    private int type = TdsPackets.REPLY;

    TdsWriter(OutputStream out, int packetSize) {
        this.out = out;
        this.packet = new byte[packetSize];
    }

    void output(OutputStream out) {
        this.out = out;
    }

    void packetSize(int size) {
        if (position != TdsPackets.HEADER) {
            throw new IllegalStateException("packet size changed inside a message");
        }
        packet = new byte[size];
    }

    void type(int type) {
        this.type = type;
    }

    void u8(int v) throws IOException {
        if (position == packet.length) {
            sendPacket(false);
        }
        packet[position++] = (byte) v;
    }

    void u16(int v) throws IOException {
        u8(v);
        u8(v >>> 8);
    }

    void u16be(int v) throws IOException {
        u8(v >>> 8);
        u8(v);
    }

    void i32(int v) throws IOException {
        u16(v);
        u16(v >>> 16);
    }

    void i64(long v) throws IOException {
        i32((int) v);
        i32((int) (v >>> 32));
    }

    void bytes(byte[] b) throws IOException {
        bytes(b, 0, b.length);
    }

    void bytes(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            if (position == packet.length) {
                sendPacket(false);
            }
            int n = Math.min(len, packet.length - position);
            System.arraycopy(b, off, packet, position, n);
            position += n;
            off += n;
            len -= n;
        }
    }

    /** UCS-2 (UTF-16LE) characters without a length. */
    void ucs2(String s) throws IOException {
        bytes(s.getBytes(StandardCharsets.UTF_16LE));
    }

    /** B_VARCHAR: a one-byte character count, then UCS-2. */
    void bVarchar(String s) throws IOException {
        u8(s.length());
        ucs2(s);
    }

    /** US_VARCHAR: a two-byte character count, then UCS-2. */
    void usVarchar(String s) throws IOException {
        u16(s.length());
        ucs2(s);
    }

    /** Sends what is buffered as the message's last packet. */
    void endMessage() throws IOException {
        sendPacket(true);
        out.flush();
        packetId = 1;
    }

    /** Sends what is buffered as a packet that is not the message's last, and flushes it to the socket. */
    void flushPartial() throws IOException {
        if (position > TdsPackets.HEADER) {
            sendPacket(false);
        }
        out.flush();
    }

    /** Bytes written to the current packet so far (for tests of the framing). */
    int buffered() {
        return position - TdsPackets.HEADER;
    }

    private void sendPacket(boolean eom) throws IOException {
        byte[] h = TdsPackets.header(type, eom, position - TdsPackets.HEADER, packetId++ & 0xFF);
        System.arraycopy(h, 0, packet, 0, TdsPackets.HEADER);
        out.write(packet, 0, position);
        position = TdsPackets.HEADER;
        if (!eom) {
            out.flush();
        }
    }
}
