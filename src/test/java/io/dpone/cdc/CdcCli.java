package io.dpone.cdc;

import io.dpone.cli.CdcCommands;
import io.dpone.cli.DponeCli;
import io.dpone.connect.Redactor;
import io.dpone.report.ReportWriter;
import io.dpone.testing.CliRun;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * Runs {@code dpone ops cdc-runtime-run ...} in-process. Once {@code CdcCommands} is registered in {@link DponeCli}
 * this is exactly {@link CliRun}; until then the same top-level command line is built here with {@code ops} added
 * and DponeCli's exit-code handlers.
 */
final class CdcCli {
    private CdcCli() {
    }

    static CliRun run(String... args) {
        if (new CommandLine(new DponeCli()).getSubcommands().containsKey("ops")) {
            return CliRun.of(args);
        }
        synchronized (CliRun.class) {
            PrintStream out = System.out;
            PrintStream err = System.err;
            ByteArrayOutputStream o = new ByteArrayOutputStream();
            ByteArrayOutputStream e = new ByteArrayOutputStream();
            try {
                System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
                System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
                CommandLine cl = new CommandLine(new DponeCli()).addSubcommand(new CdcCommands());
                cl.setExecutionExceptionHandler((ex, line, parsed) -> {
                    line.getErr().println(ReportWriter.json(Map.of("schema", "dpone.error.v1", "passed", false,
                        "message", Redactor.global().describe(ex))));
                    return DponeCli.BLOCKED;
                });
                cl.setParameterExceptionHandler((ex, a) -> {
                    ex.getCommandLine().getErr().println("dpone: " + ex.getMessage());
                    ex.getCommandLine().usage(ex.getCommandLine().getErr());
                    return DponeCli.USAGE;
                });
                int code = cl.execute(args);
                return new CliRun(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
            } finally {
                System.setOut(out);
                System.setErr(err);
            }
        }
    }

    /** The spec's local example, with its {@code test_artifacts/...} paths placed under {@code base}. */
    static List<String> specExample(Path base, String... extra) {
        Path dir = base.resolve("test_artifacts/cdc_runtime/mssql_to_clickhouse/orders");
        List<String> args = new ArrayList<>(List.of("ops", "cdc-runtime-run",
            "--source", "mssql",
            "--sink", "clickhouse",
            "--backend", "mssql_cdc",
            "--pipeline-name", "orders-cdc",
            "--source-schema", "dbo",
            "--source-table", "orders",
            "--target-dataset", "analytics.orders",
            "--unique-key", "order_id",
            "--events-json", dir.resolve("events.json").toString(),
            "--checkpoint-json", dir.resolve("checkpoint.json").toString(),
            "--output-dir", dir.toString(),
            "--format", "json"));
        args.addAll(List.of(extra));
        return args;
    }

    static CliRun run(List<String> args) {
        return run(args.toArray(String[]::new));
    }
}
