package io.dpone.testing.mssql;

import io.dpone.testing.mssql.engine.H2Backend;
import io.dpone.testing.mssql.tds.LoginPolicy;
import io.dpone.testing.mssql.tds.TdsServer;
import io.dpone.testing.mssql.tds.TwinCertificate;
import java.net.BindException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * A SQL Server twin for tests: the TDS protocol as mssql-jdbc speaks it (TDS 7.4, SQL authentication, TLS inside
 * the handshake), over H2 in SQL Server mode with dpone's emulations (CDC, Change Tracking, the catalogue views),
 * results encoded from each column's declared SQL Server type. A twin run is not a server run: T-SQL parsing and
 * planning are H2's, locking and the capture job are emulated (docs/testing.md).
 *
 * <p>Usage: {@code MssqlTwin --port P --path DIR [--user U --password-env VAR] [--database D ...]}; prints
 * {@code mssql-twin ready 127.0.0.1:P} on stdout once it serves, stops on SIGTERM or SIGINT, exits 2 on a usage
 * error or a port in use.
 */
public final class MssqlTwin {
    /** The wire's faults, as {@code sp_twin_fault} sets them in the engine. */
    static final io.dpone.testing.mssql.tds.WireFaults FAULTS = new io.dpone.testing.mssql.tds.WireFaults() {
        @Override
        public int dropAfterRows() {
            return H2Backend.faults().dropAfterRows();
        }

        @Override
        public int takeDropAfterRows() {
            return H2Backend.faults().takeDropAfterRows();
        }

        @Override
        public long takeStallMillis() {
            return H2Backend.faults().takeStallMs();
        }
    };

    private MssqlTwin() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        List<String> databases = new ArrayList<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (args[i].equals("--database")) {
                databases.add(args[i + 1]);
            } else {
                options.put(args[i], args[i + 1]);
            }
        }
        if (args.length % 2 != 0 || !options.containsKey("--port") || !options.containsKey("--path")) {
            usage();
        }
        int port;
        try {
            port = Integer.parseInt(options.get("--port"));
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 0 || port > 65535) {
            System.err.println("mssql-twin: --port must be 0..65535");
            System.exit(2);
        }
        LoginPolicy login = LoginPolicy.anyLogin();
        if (options.containsKey("--user")) {
            String env = options.get("--password-env");
            String password = env == null ? null : System.getenv(env);
            if (password == null) {
                System.err.println("mssql-twin: --user needs --password-env naming a set environment variable");
                System.exit(2);
            }
            login = new LoginPolicy(options.get("--user"), password.toCharArray());
        }
        Path dir = Path.of(options.get("--path"));
        H2Backend backend = new H2Backend(dir);
        for (String d : databases) {
            backend.createDatabase(d);
        }
        TdsServer server;
        try {
            server = new TdsServer(port, backend::open, login, TwinCertificate.context(dir), FAULTS);
        } catch (BindException e) {
            System.err.println("mssql-twin: port " + port + " is in use");
            backend.close();
            System.exit(2);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (java.io.IOException ignored) {
                // stopping anyway
            }
            backend.close();
            stopped.countDown();
        }, "mssql-twin-stop"));
        System.out.println("mssql-twin ready 127.0.0.1:" + server.port());
        System.out.flush();
        stopped.await();
    }

    private static void usage() {
        System.err.println("usage: mssql-twin --port P --path DIR [--user U --password-env VAR] [--database D ...]");
        System.exit(2);
    }
}
