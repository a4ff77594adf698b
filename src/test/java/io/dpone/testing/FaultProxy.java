package io.dpone.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A seeded TCP fault proxy (issue 35): listens on a loopback port and forwards every connection to {@code upstream},
 * injecting at most one fault per connection at a byte offset (both directions counted together) drawn from the
 * schedule's seed: a reset (RST both ways), an orderly close (FIN both ways), a stall (nothing forwarded for
 * {@code stallMillis}, beyond the client's socket timeout, then closed), a half-open connection (the server's side
 * closed, the client's left open and silent for {@code stallMillis}), a slow drip (the server's bytes forwarded 16 at
 * a time every 20 ms for {@code dripMillis}, then at full speed), or refused reconnects (a reset, then the next
 * {@value #REFUSED} connections reset before their first byte). The same seed gives the same faults at the same
 * offsets of the same connections (connection i gets the i-th draw); where the traffic is timing-dependent (pooled
 * connections) the schedule is the same and its effects may differ.
 *
 * <p>{@code faultRate} is the share of connections that get a fault (1.0: one fault on every connection, the issue's
 * measurement); the offset is uniform in {@code [0, window)}, so a connection that carries fewer bytes than its
 * offset ends unharmed.
 */
public final class FaultProxy implements AutoCloseable {
    /** Connections reset before their first byte after a {@link Kind#REFUSE} fault. */
    public static final int REFUSED = 2;

    /** The faults a schedule draws from. */
    public enum Kind { RESET, CLOSE, STALL, HALF_OPEN, DRIP, REFUSE }

    private final ServerSocket server;
    private final InetSocketAddress upstream;
    private final Random random;
    private final List<Kind> kinds;
    private final double faultRate;
    private final long window;
    private final long stallMillis;
    private final long dripMillis;
    /** When not negative, every connection gets its fault at this offset (a replay of one offset; see {@link #at}). */
    private final long fixedOffset;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicBoolean enabled = new AtomicBoolean(true);
    private final AtomicInteger refuseNext = new AtomicInteger();
    private final Map<Kind, AtomicInteger> fired = new EnumMap<>(Kind.class);
    private final AtomicInteger connections = new AtomicInteger();
    private final List<Socket> open = new ArrayList<>();
    private final Thread acceptor;

    private FaultProxy(InetSocketAddress upstream, long seed, List<Kind> kinds, double faultRate, long window,
                       long stallMillis, long dripMillis, long fixedOffset) throws IOException {
        this.fixedOffset = fixedOffset;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.upstream = upstream;
        this.random = new Random(seed);
        this.kinds = List.copyOf(kinds);
        this.faultRate = faultRate;
        this.window = window;
        this.stallMillis = stallMillis;
        this.dripMillis = dripMillis;
        for (Kind k : Kind.values()) {
            fired.put(k, new AtomicInteger());
        }
        this.acceptor = new Thread(this::accept, "fault-proxy-accept");
        this.acceptor.setDaemon(true);
        this.acceptor.start();
    }

    /** A proxy to {@code host:port} drawing faults of {@code kinds} from {@code seed}. */
    public static FaultProxy start(String host, int port, long seed, List<Kind> kinds, double faultRate, long window,
                                   long stallMillis, long dripMillis) throws IOException {
        return new FaultProxy(new InetSocketAddress(host, port), seed, kinds, faultRate, window, stallMillis,
            dripMillis, -1);
    }

    /**
     * A proxy to {@code host:port} that gives every connection the fault {@code kind} at exactly byte {@code offset}
     * (both directions counted together): the deterministic replay of one point of a schedule, for sweeping the
     * offsets of one request.
     */
    public static FaultProxy at(String host, int port, Kind kind, long offset, long stallMillis) throws IOException {
        return new FaultProxy(new InetSocketAddress(host, port), 0, List.of(kind), 1.0, offset + 1, stallMillis,
            stallMillis, offset);
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Faults on (the default) or off: with faults off the proxy forwards every new connection untouched. */
    public void faults(boolean on) {
        enabled.set(on);
        if (!on) {
            refuseNext.set(0);
        }
    }

    /** Faults that fired, per kind. */
    public Map<Kind, Integer> fired() {
        Map<Kind, Integer> out = new EnumMap<>(Kind.class);
        fired.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    /** Faults that fired in all. */
    public int firedTotal() {
        return fired.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    public int connections() {
        return connections.get();
    }

    private void accept() {
        while (!closed.get()) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            connections.incrementAndGet();
            if (enabled.get() && refuseNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                reset(client);
                continue;
            }
            Kind kind;
            long offset;
            synchronized (random) {
                boolean faulty = random.nextDouble() < faultRate;
                kind = kinds.get(random.nextInt(kinds.size()));
                offset = fixedOffset >= 0 ? fixedOffset : (long) (random.nextDouble() * window);
                if (!faulty || !enabled.get()) {
                    kind = null;
                }
            }
            Connection c;
            try {
                Socket up = new Socket();
                up.connect(upstream, 5_000);
                c = new Connection(client, up, kind, offset);
            } catch (IOException e) {
                reset(client);
                continue;
            }
            synchronized (open) {
                open.add(client);
                open.add(c.up);
            }
            c.start();
        }
    }

    /** One proxied connection: two pumps sharing a byte count and at most one fault. */
    private final class Connection {
        final Socket client;
        final Socket up;
        final Kind kind;
        final long offset;
        final AtomicLong bytes = new AtomicLong();
        final AtomicBoolean triggered = new AtomicBoolean();
        final CountDownLatch released = new CountDownLatch(1);
        volatile boolean silent;
        volatile long dripUntil;

        Connection(Socket client, Socket up, Kind kind, long offset) {
            this.client = client;
            this.up = up;
            this.kind = kind;
            this.offset = offset;
        }

        void start() {
            Thread a = new Thread(() -> pump(client, up, false), "fault-proxy-up");
            Thread b = new Thread(() -> pump(up, client, true), "fault-proxy-down");
            a.setDaemon(true);
            b.setDaemon(true);
            a.start();
            b.start();
        }

        private void pump(Socket from, Socket to, boolean downstream) {
            byte[] buf = new byte[8192];
            try (InputStream in = from.getInputStream()) {
                OutputStream out = to.getOutputStream();
                int n;
                while ((n = in.read(buf)) >= 0) {
                    int cut = n;
                    if (kind != null && !triggered.get()) {
                        long before = bytes.getAndAdd(n);
                        if (before + n > offset) {
                            cut = (int) Math.max(0, offset - before);
                        }
                    }
                    if (silent) {
                        hold();
                        return;
                    }
                    if (cut < n) {
                        out.write(buf, 0, cut);
                        out.flush();
                        if (triggered.compareAndSet(false, true)) {
                            fire(out, buf, cut, n, downstream);
                        }
                        if (kind != Kind.DRIP) {
                            return;
                        }
                        continue;
                    }
                    if (downstream && System.nanoTime() < dripUntil) {
                        drip(out, buf, 0, n);
                    } else {
                        out.write(buf, 0, n);
                        out.flush();
                    }
                }
                to.shutdownOutput(); // pass the orderly end on
            } catch (IOException e) {
                closeBoth(false);
            }
        }

        private void fire(OutputStream out, byte[] buf, int from, int n, boolean downstream) throws IOException {
            fired.get(kind).incrementAndGet();
            switch (kind) {
                case RESET -> closeBoth(true);
                case CLOSE -> closeBoth(false);
                case REFUSE -> {
                    refuseNext.set(REFUSED);
                    closeBoth(true);
                }
                case STALL -> {
                    silent = true;
                    hold();
                }
                case HALF_OPEN -> {
                    silent = true;
                    reset(up);
                    hold();
                }
                case DRIP -> {
                    dripUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(dripMillis);
                    if (downstream) {
                        drip(out, buf, from, n);
                    } else {
                        out.write(buf, from, n - from);
                        out.flush();
                    }
                }
                default -> throw new IllegalStateException(String.valueOf(kind));
            }
        }

        /** Silence: nothing forwarded either way until the stall ends (bounded), then both sides closed. */
        private void hold() {
            try {
                released.await(stallMillis, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            released.countDown();
            closeBoth(false);
        }

        private void drip(OutputStream out, byte[] buf, int from, int n) throws IOException {
            for (int i = from; i < n; i += 16) {
                out.write(buf, i, Math.min(16, n - i));
                out.flush();
                if (System.nanoTime() < dripUntil) {
                    java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20)); // the drip
                }
            }
        }

        private void closeBoth(boolean rst) {
            if (rst) {
                reset(client);
                reset(up);
            } else {
                quietly(client);
                quietly(up);
            }
        }
    }

    private static void reset(Socket s) {
        try {
            s.setSoLinger(true, 0); // close() sends RST
        } catch (IOException ignored) {
            // closed already
        }
        quietly(s);
    }

    private static void quietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closed already
        }
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            server.close();
        } catch (IOException ignored) {
            // closing
        }
        synchronized (open) {
            open.forEach(FaultProxy::quietly);
            open.clear();
        }
        try {
            acceptor.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
