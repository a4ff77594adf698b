package io.dpone.clickhouse.chdb;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fresh process that opens the embedded engine again and again while other Java threads do what made live CDC
 * ticks hang or crash: an H2 file database writing in the background (its {@code H2-save} thread), threads that
 * allocate, throw and catch NullPointerExceptions in JIT-compiled code, and force safepoints with
 * {@code System.gc()}. Prints {@code opens=N npes=M gcs=K} and exits 0; a landing in a foreign or default handler
 * hangs or kills it instead, which is what {@code EngineSignalStressTest} watches for.
 *
 * <p>Arguments: {@code DATA_DIR OPENS [hold]}. With {@code hold} it prints {@code ready} after the opens and waits
 * (for signal tests), with the engine open and the background threads running.
 */
public final class EngineSignalStress {
    private EngineSignalStress() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int opens = Integer.parseInt(args[1]);
        boolean hold = args.length > 2 && args[2].equals("hold");
        Path library = ChdbInstaller.forUserCache().ensureInstalled();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("shutdown hook ran")));
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong npes = new AtomicLong();
        AtomicLong gcs = new AtomicLong();
        try (Connection h2 = DriverManager.getConnection("jdbc:h2:file:" + dir.resolve("source").toAbsolutePath()
                + ";MODE=MSSQLServer;DATABASE_TO_UPPER=FALSE;WRITE_DELAY=10", "sa", "")) {
            try (Statement s = h2.createStatement()) {
                s.execute("CREATE TABLE IF NOT EXISTS t (id BIGINT PRIMARY KEY, v VARCHAR(200))");
            }
            List<Thread> threads = new ArrayList<>();
            threads.add(start("h2-writer", stop, () -> h2Writes(h2, stop)));
            threads.add(start("npe-thrower", stop, () -> throwNpes(stop, npes)));
            threads.add(start("allocator", stop, () -> allocate(stop)));
            threads.add(start("gc-forcer", stop, () -> forceGcs(stop, gcs)));
            Path data = Files.createDirectories(dir.resolve("chdb"));
            List<ChdbConnection> held = new ArrayList<>();
            for (int i = 0; i < opens; i++) {
                ChdbConnection c = ChdbConnection.open(library, data);
                c.query("SELECT count() FROM numbers(1000)", "TSV");
                if (i % 3 == 2 || hold) {
                    held.add(c); // a second connection on a live engine, as jobs and probes do
                } else {
                    c.close(); // the engine's last connection: the next open starts it again
                }
            }
            if (hold) {
                System.out.println("ready");
                System.out.flush();
                Thread.sleep(Long.MAX_VALUE); // holds the engine open until the test's signal
            }
            held.forEach(ChdbConnection::close);
            stop.set(true);
            for (Thread t : threads) {
                t.join();
            }
            System.out.println("opens=" + opens + " npes=" + npes.get() + " gcs=" + gcs.get());
        }
    }

    private static Thread start(String name, AtomicBoolean stop, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void h2Writes(Connection h2, AtomicBoolean stop) {
        try (PreparedStatement insert = h2.prepareStatement("MERGE INTO t (id, v) KEY (id) VALUES (?, ?)")) {
            long id = 0;
            while (!stop.get()) {
                insert.setLong(1, id++ % 5000);
                insert.setString(2, "value-" + id);
                insert.executeUpdate();
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void throwNpes(AtomicBoolean stop, AtomicLong npes) {
        Object[] holders = {new Object(), null};
        int i = 0;
        while (!stop.get()) {
            try {
                holders[i++ & 1].hashCode(); // an implicit null check once compiled: a SIGSEGV the JVM turns into NPE
            } catch (NullPointerException expected) {
                npes.incrementAndGet();
            }
        }
    }

    private static void allocate(AtomicBoolean stop) {
        List<byte[]> keep = new ArrayList<>();
        while (!stop.get()) {
            keep.add(new byte[64 * 1024]);
            if (keep.size() > 256) {
                keep.clear();
            }
        }
    }

    private static void forceGcs(AtomicBoolean stop, AtomicLong gcs) {
        while (!stop.get()) {
            System.gc(); // a safepoint: every compiled thread takes its poll, a SIGSEGV on a protected page
            gcs.incrementAndGet();
            try {
                Thread.sleep(5); // the pace of the forced safepoints, the stress itself
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
