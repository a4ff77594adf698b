package io.dpone.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A loopback TCP server that accepts connections and misbehaves in one {@link Mode}: says nothing, answers an HTTP
 * request with a body dripped a byte at a time, with an endless body, with endless headers, or with garbage. Each
 * connection runs on its own daemon thread; {@link #close()} closes the listener and every connection. Used by the
 * hostile-server tests and the fuzz suite. An HTTP client gets its answer after its request head; a binary client (TDS)
 * after its first packet.
 */
public final class HostileServer implements AutoCloseable {
    public enum Mode {
        /** Accepts and never writes a byte. */
        SILENT,
        /** A 200 head, then a chunked body one byte every {@code dripMillis}. */
        DRIP,
        /** A 200 head, then a chunked body that never ends (valid compressed blocks), as fast as the client reads. */
        ENDLESS_BODY,
        /** A status line, then header lines that never end. */
        ENDLESS_HEADERS,
        /** A status line, then one header line that never ends. */
        ENDLESS_HEADER_LINE,
        /** Seeded random bytes, then the connection is closed. */
        GARBAGE
    }

    private final ServerSocket server;
    private final Mode mode;
    private final long dripMillis;
    private final long seed;
    private final List<Socket> held = new ArrayList<>();
    private final CountDownLatch closing = new CountDownLatch(1);
    private volatile int accepted;

    public HostileServer(Mode mode, long dripMillis, long seed) throws IOException {
        this.mode = mode;
        this.dripMillis = dripMillis;
        this.seed = seed;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "hostile-" + mode);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    public String url() {
        return "http://127.0.0.1:" + port();
    }

    public int accepted() {
        return accepted;
    }

    private void accept() {
        try {
            while (true) {
                Socket s = server.accept();
                synchronized (held) {
                    held.add(s);
                }
                accepted++;
                Thread t = new Thread(() -> serve(s), "hostile-" + mode + "-conn");
                t.setDaemon(true);
                t.start();
            }
        } catch (IOException e) {
            // closed
        }
    }

    private void serve(Socket s) {
        try (s) {
            if (mode == Mode.SILENT) {
                closing.await();
                return;
            }
            InputStream in = s.getInputStream();
            int first = in.read();
            if (first >= 'A' && first <= 'Z') {
                readHead(in); // an HTTP request: its head
            } else {
                in.read(new byte[8192]); // a binary protocol (a TDS PRELOGIN packet): what came first
            }
            OutputStream out = s.getOutputStream();
            switch (mode) {
                case DRIP -> {
                    out.write(head().getBytes(StandardCharsets.US_ASCII));
                    while (!closing.await(dripMillis, TimeUnit.MILLISECONDS)) {
                        out.write("1\r\n \r\n".getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                    }
                }
                case ENDLESS_BODY -> {
                    out.write(head().getBytes(StandardCharsets.US_ASCII));
                    // ClickHouse's compressed framing (client-v2 asks for it): the same valid block of blanks, forever
                    java.io.ByteArrayOutputStream framed = new java.io.ByteArrayOutputStream();
                    try (var lz4 = new com.clickhouse.client.api.internal.ClickHouseLZ4OutputStream(framed,
                        net.jpountz.lz4.LZ4Factory.fastestInstance().fastCompressor(), 64 * 1024)) {
                        lz4.write(" ".repeat(64 * 1024).getBytes(StandardCharsets.US_ASCII));
                    }
                    byte[] block = framed.toByteArray();
                    byte[] size = (Integer.toHexString(block.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
                    byte[] end = "\r\n".getBytes(StandardCharsets.US_ASCII);
                    while (closing.getCount() > 0) {
                        out.write(size);
                        out.write(block);
                        out.write(end);
                    }
                }
                case ENDLESS_HEADERS -> {
                    out.write("HTTP/1.1 200 OK\r\n".getBytes(StandardCharsets.US_ASCII));
                    for (long i = 0; closing.getCount() > 0; i++) {
                        out.write(("X-Pad-" + i + ": " + "a".repeat(64) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    }
                }
                case ENDLESS_HEADER_LINE -> {
                    out.write("HTTP/1.1 200 OK\r\nX-Pad: ".getBytes(StandardCharsets.US_ASCII));
                    byte[] a = "a".repeat(8192).getBytes(StandardCharsets.US_ASCII);
                    while (closing.getCount() > 0) {
                        out.write(a);
                    }
                }
                case GARBAGE -> {
                    byte[] junk = new byte[4096];
                    new Random(seed).nextBytes(junk);
                    out.write(junk);
                    out.flush();
                }
                default -> {
                }
            }
        } catch (IOException e) {
            // the client gave up: that is the point
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String head() {
        return "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-ClickHouse-Format: JSONCompactEachRow\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n";
    }

    /** Reads the request head (up to the blank line; the body, if any, is left unread). */
    private static void readHead(InputStream in) throws IOException {
        int state = 0;
        int c;
        while ((c = in.read()) >= 0) {
            state = switch (state) {
                case 0, 2 -> c == '\r' ? state + 1 : 0;
                case 1 -> c == '\n' ? 2 : 0;
                case 3 -> c == '\n' ? 4 : 0;
                default -> 0;
            };
            if (state == 4) {
                return;
            }
        }
    }

    @Override
    public void close() throws IOException {
        closing.countDown();
        server.close();
        synchronized (held) {
            for (Socket s : held) {
                s.close();
            }
        }
    }
}
