package io.dpone.testing.mssql.tds;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;

/**
 * TLS inside TDS (MS-TDS 3.2.5.1): the handshake's records travel in PRELOGIN packets, one TDS message per flight
 * each way; afterwards records travel raw on the socket and carry whole TDS packets. An {@link SSLEngine} rather
 * than an {@code SSLSocket}, because the handshake must be framed by hand. TLS 1.2 only: a TLS 1.3 server sends its
 * session ticket after the handshake, when the client already reads raw records, and the ticket would arrive in the
 * wrong framing (SQL Server itself offers TLS 1.3 only with TDS 8's strict encryption).
 */
final class TlsChannel {
    private final SSLEngine engine;
    private final InputStream rawIn;
    private final OutputStream rawOut;
    private ByteBuffer netIn;
    private ByteBuffer appIn;

    TlsChannel(SSLContext context, InputStream rawIn, OutputStream rawOut) {
        this.engine = context.createSSLEngine();
        this.engine.setUseClientMode(false);
        this.engine.setEnabledProtocols(new String[] {"TLSv1.2"});
        this.rawIn = rawIn;
        this.rawOut = rawOut;
        this.netIn = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        this.netIn.flip();
        this.appIn = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize());
        this.appIn.flip();
    }

    /** Runs the handshake over PRELOGIN messages. */
    void handshake() throws IOException {
        engine.beginHandshake();
        ByteBuffer empty = ByteBuffer.allocate(0);
        java.io.ByteArrayOutputStream flight = new java.io.ByteArrayOutputStream();
        while (true) {
            SSLEngineResult.HandshakeStatus hs = engine.getHandshakeStatus();
            switch (hs) {
                case NEED_TASK -> {
                    Runnable task;
                    while ((task = engine.getDelegatedTask()) != null) {
                        task.run();
                    }
                }
                case NEED_WRAP -> {
                    ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
                    SSLEngineResult r = engine.wrap(empty, out);
                    check(r);
                    flight.write(out.array(), 0, out.position());
                    if (r.getHandshakeStatus() != SSLEngineResult.HandshakeStatus.NEED_WRAP
                        && r.getHandshakeStatus() != SSLEngineResult.HandshakeStatus.NEED_TASK) {
                        sendFlight(flight);
                    }
                }
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                    sendFlight(flight);
                    unwrapHandshake();
                }
                default -> {
                    sendFlight(flight);
                    return;
                }
            }
        }
    }

    private void sendFlight(java.io.ByteArrayOutputStream flight) throws IOException {
        if (flight.size() == 0) {
            return;
        }
        TdsWriter w = new TdsWriter(rawOut, 4096);
        w.type(TdsPackets.PRELOGIN);
        w.bytes(flight.toByteArray());
        w.endMessage();
        flight.reset();
    }

    private void unwrapHandshake() throws IOException {
        while (true) {
            if (netIn.hasRemaining()) {
                ByteBuffer scratch = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize());
                SSLEngineResult r = engine.unwrap(netIn, scratch);
                if (r.getStatus() == SSLEngineResult.Status.OK) {
                    return;
                }
                if (r.getStatus() != SSLEngineResult.Status.BUFFER_UNDERFLOW) {
                    check(r);
                }
            }
            TdsMessage m = TdsPackets.read(rawIn);
            if (m == null || m.type() != TdsPackets.PRELOGIN) {
                throw new SSLException("the TLS handshake did not continue in PRELOGIN packets");
            }
            append(m.payload(), 0, m.payload().length);
        }
    }

    private void append(byte[] b, int off, int len) {
        ByteBuffer grown = netIn;
        if (netIn.capacity() - netIn.limit() < len) {
            grown = ByteBuffer.allocate(netIn.remaining() + len + engine.getSession().getPacketBufferSize());
            grown.put(netIn);
            grown.flip();
        }
        grown.compact();
        grown.put(b, off, len);
        grown.flip();
        netIn = grown;
    }

    private static void check(SSLEngineResult r) throws SSLException {
        if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
            throw new SSLException("TLS closed during the handshake");
        }
        if (r.getStatus() != SSLEngineResult.Status.OK) {
            throw new SSLException("TLS " + r.getStatus());
        }
    }

    /** Decrypted bytes of the raw records that follow the handshake. */
    InputStream input() {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                while (!appIn.hasRemaining()) {
                    if (!fill()) {
                        return -1;
                    }
                }
                int n = Math.min(len, appIn.remaining());
                appIn.get(b, off, n);
                return n;
            }

            @Override
            public int available() throws IOException {
                return appIn.remaining() > 0 ? appIn.remaining() : netIn.remaining() + rawIn.available();
            }
        };
    }

    /** Reads and decrypts at least one record; false at the end of the stream. */
    private boolean fill() throws IOException {
        ByteBuffer out = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize());
        while (true) {
            if (netIn.hasRemaining()) {
                SSLEngineResult r = engine.unwrap(netIn, out);
                if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
                    return false;
                }
                if (r.getStatus() == SSLEngineResult.Status.OK) {
                    out.flip();
                    appIn = out;
                    if (appIn.hasRemaining()) {
                        return true;
                    }
                    out = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize());
                    continue;
                }
                if (r.getStatus() != SSLEngineResult.Status.BUFFER_UNDERFLOW) {
                    throw new SSLException("TLS " + r.getStatus());
                }
            }
            byte[] buf = new byte[16 * 1024];
            int n = rawIn.read(buf);
            if (n < 0) {
                return false;
            }
            append(buf, 0, n);
        }
    }

    /** Encrypts what is written into raw records. */
    OutputStream output() {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                ByteBuffer src = ByteBuffer.wrap(b, off, len);
                while (src.hasRemaining()) {
                    ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
                    SSLEngineResult r = engine.wrap(src, out);
                    if (r.getStatus() != SSLEngineResult.Status.OK) {
                        throw new SSLException("TLS " + r.getStatus());
                    }
                    rawOut.write(out.array(), 0, out.position());
                }
            }

            @Override
            public void flush() throws IOException {
                rawOut.flush();
            }
        };
    }
}
