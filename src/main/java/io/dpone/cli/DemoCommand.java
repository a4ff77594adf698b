package io.dpone.cli;

import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.EmbeddedDefaults;
import io.dpone.connect.Redactor;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.error.DponeException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code dpone demo seed}: fills {@code dbo.sales} on a source alias (default: the embedded demo source). */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Demo data.", subcommands = DemoCommand.Seed.class)
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

        @Override
        public Integer call() throws Exception {
            if (rows < 0) {
                System.err.println("dpone: --rows must be >= 0");
                return DponeCli.USAGE;
            }
            try {
                ConnectionSpec spec = ConnectionContext.fromEnvironment().resolve(alias, ConnectionType.MSSQL,
                    "--connection");
                Properties p = new Properties();
                if (spec.user() != null) {
                    p.setProperty("user", spec.user());
                }
                if (spec.password() != null) {
                    p.setProperty("password", spec.password().reveal());
                }
                try (Connection c = DriverManager.getConnection(spec.url(), p);
                     StderrProgress progress = StderrProgress.onStderr(quiet, Format.text)) {
                    progress.rowsExpected(rows);
                    DemoSalesGenerator.seed(c, rows, seed, progress::rowsRead);
                }
                System.out.println("seeded dbo." + DemoSalesGenerator.TABLE + " with " + rows + " rows on " + alias);
                return DponeCli.OK;
            } catch (DponeException e) {
                System.err.print(Output.blockersText(e.blockers()));
                return DponeCli.BLOCKED;
            } catch (java.sql.SQLException e) {
                System.err.println("dpone: demo seed failed: " + Redactor.global().describe(e));
                return DponeCli.BLOCKED;
            }
        }
    }
}
