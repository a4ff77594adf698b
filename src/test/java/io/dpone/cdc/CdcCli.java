package io.dpone.cdc;

import io.dpone.cli.DponeCli;
import io.dpone.testing.CliRun;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs {@code dpone ops cdc-runtime-run ...} in-process: {@link CliRun} ({@code ops} is a subcommand of
 * {@link DponeCli}), and the spec's example arguments.
 */
final class CdcCli {
    private CdcCli() {
    }

    static CliRun run(String... args) {
        return CliRun.of(args);
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
