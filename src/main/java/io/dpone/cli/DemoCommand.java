package io.dpone.cli;

import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.EmbeddedDefaults;
import io.dpone.connect.Redactor;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.sql.Connection;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code dpone demo seed}: fills {@code dbo.sales} on a source alias (default: the embedded demo source). */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Demo data.", subcommands = {DemoCommand.Seed.class, DemoCommand.Changes.class})
public final class DemoCommand {
    @Command(name = "seed", mixinStandardHelpOptions = true,
        description = "Create and fill dbo.sales with generated demo rows.")
    static final class Seed implements Callable<Integer> {
        @Option(names = "--rows", defaultValue = "100000", description = "Row count (default: ${DEFAULT-VALUE}).")
        long rows;

        @Option(names = "--seed", defaultValue = "42", description = "Generator seed (default: ${DEFAULT-VALUE}).")
        long seed;

        @Option(names = "--connection", defaultValue = EmbeddedDefaults.SOURCE_ALIAS,
            description = "Source alias in the connection context (default: ${DEFAULT-VALUE}).")
        String alias;

        @Option(names = {"-q", "--quiet"}, description = "No progress on stderr.")
        boolean quiet;

        @Option(names = "--cdc", description = "Also enable the SQL Server CDC emulation of dbo.sales (capture "
            + "instance dbo_sales; the embedded H2 demo source only).")
        boolean cdc;

        @Override
        public Integer call() throws Exception {
            if (rows < 0) {
                System.err.println("dpone: --rows must be >= 0");
                return DponeCli.USAGE;
            }
            return onSource(alias, "seed", c -> {
                try (StderrProgress progress = StderrProgress.onStderr(quiet, Format.text)) {
                    progress.rowsExpected(rows);
                    DemoSalesGenerator.seed(c, rows, seed, progress::rowsRead);
                    if (cdc) {
                        io.dpone.demo.DemoCdc.enable(c);
                    }
                }
                return "seeded dbo." + DemoSalesGenerator.TABLE + " with " + rows + " rows on " + alias
                    + (cdc ? "; CDC capture instance " + io.dpone.demo.DemoCdc.CAPTURE_INSTANCE + " enabled" : "");
            });
        }
    }

    /** What a demo command does on its source connection; returns the line it prints. */
    private interface OnSource {
        String run(Connection c) throws java.sql.SQLException;
    }

    /** Runs {@code action} on a writable connection to {@code alias}; typed and SQL failures exit 1, redacted. */
    private static int onSource(String alias, String command, OnSource action) {
        try {
            ConnectionSpec spec = ConnectionContext.fromEnvironment().resolve(alias, ConnectionType.MSSQL,
                "--connection");
            try {
                io.dpone.connect.EmbeddedDefaults.privateSource(spec.url()); // the demo rows: 0700 directory
            } catch (java.io.IOException e) {
                throw new DponeException(BlockerCode.RUNTIME_UNSAFE_PATH, "--connection",
                    "the embedded demo source's directory is not private: " + e.getMessage());
            }
            // the source connection every command opens (typed connection.failed, no endpoint), made writable
            Connection c = io.dpone.source.SourceConnections.open(spec, "dpone-demo");
            String line;
            try (c) {
                c.setReadOnly(false);
                line = action.run(c);
            } catch (java.sql.SQLException e) {
                throw new DponeException(BlockerCode.DEMO_WRITE_FAILED, "--connection", "demo " + command
                    + " could not write on alias " + alias + " (SQLState " + e.getSQLState() + ")");
            }
            System.out.println(line);
            return DponeCli.OK;
        } catch (DponeException e) {
            System.err.print(Redactor.global().redact(Output.blockersText(e.blockers())));
            return DponeCli.BLOCKED;
        }
    }

    @Command(name = "changes", mixinStandardHelpOptions = true,
        description = "Write changes to dbo.sales through the CDC emulation (updates, inserts, deletes, key changes).")
    static final class Changes implements Callable<Integer> {
        @Option(names = "--count", defaultValue = "1000", description = "Changes to write (default: ${DEFAULT-VALUE}).")
        int count;

        @Option(names = "--seed", defaultValue = "7", description = "Generator seed (default: ${DEFAULT-VALUE}).")
        long seed;

        @Option(names = "--connection", defaultValue = EmbeddedDefaults.SOURCE_ALIAS,
            description = "Source alias in the connection context (default: ${DEFAULT-VALUE}).")
        String alias;

        @Override
        public Integer call() {
            if (count < 1) {
                System.err.println("dpone: --count must be >= 1");
                return DponeCli.USAGE;
            }
            return onSource(alias, "changes", c -> "wrote " + count + " changes to dbo.sales in "
                + io.dpone.demo.DemoCdc.changes(c, count, seed) + " transactions on " + alias);
        }
    }
}
