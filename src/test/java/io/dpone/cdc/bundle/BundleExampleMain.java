package io.dpone.cdc.bundle;

import io.dpone.cli.DponeCli;
import java.util.List;

/**
 * The promotion bundle on the embedded default of {@code $DPONE_HOME} (docs/cdc.md, "Promotion bundle"), in one
 * JVM (the embedded engine allows one data directory per process, so {@link BundleExampleTest} runs this in a child
 * process): seed {@code dbo.sales} with its CDC emulation, generate the bundle of stream {@code sales-cdc}, approve it.
 * Prints one line per step with its exit code and time; exits with the first failing step's code.
 */
public final class BundleExampleMain {
    private BundleExampleMain() {
    }

    public static void main(String[] args) {
        String out = System.getenv("DPONE_HOME") + "/bundles/sales-cdc";
        List<String> stream = List.of("ops", "cdc-promotion-bundle", "--source", "mssql", "--sink", "clickhouse",
            "--backend", "mssql_cdc", "--pipeline-name", "sales-cdc", "--source-schema", "dbo", "--source-table",
            "sales", "--target-dataset", "analytics.sales_cdc", "--unique-key", "sale_id", "--source-connection-id",
            "mssql_demo", "--sink-connection-id", "clickhouse_default", "--output-dir", out, "--format", "text");
        List<List<String>> steps = List.of(
            List.of("demo", "seed", "--rows", "2000", "--cdc", "-q"),
            stream,
            concat(stream, "--approve", "--approver", "Jane Doe"));
        for (List<String> step : steps) {
            long started = System.nanoTime();
            int code = DponeCli.execute(step.toArray(new String[0]));
            System.out.println("step " + step.get(0) + " " + step.get(1) + (step.contains("--approve") ? " --approve" : "")
                + " exit " + code + " in " + (System.nanoTime() - started) / 1_000_000 + " ms");
            if (code != 0) {
                System.exit(code);
            }
        }
        System.exit(0);
    }

    private static List<String> concat(List<String> a, String... b) {
        java.util.ArrayList<String> out = new java.util.ArrayList<>(a);
        out.addAll(List.of(b));
        return out;
    }
}
