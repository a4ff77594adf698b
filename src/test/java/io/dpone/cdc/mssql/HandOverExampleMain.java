package io.dpone.cdc.mssql;

import io.dpone.cli.DponeCli;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseEndpoints;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.manifest.TableRef;
import io.dpone.quality.GateResult;
import io.dpone.source.JdbcSourceReader;
import java.util.List;

/**
 * The steps of {@code examples/cdc/handover/run.sh}, in one JVM on the embedded default of {@code $DPONE_HOME}
 * (the embedded engine allows one data directory per process, so {@link HandOverExampleTest} runs this in a child
 * process): seed with the CDC emulation, changes, the hand-over run, more changes, one live tick, the
 * materialization; then a full refresh's gates between {@code dbo.sales} and the serving table. Prints one line per
 * step and per gate; exits with the first failing step's code.
 */
public final class HandOverExampleMain {
    private HandOverExampleMain() {
    }

    public static void main(String[] args) throws Exception {
        List<String[]> steps = List.of(
            new String[] {"demo", "seed", "--rows", "20000", "--cdc", "-q"},
            new String[] {"demo", "changes", "--count", "300", "--seed", "1"},
            new String[] {"run", "examples/cdc/handover/sales.handover.batch.yaml", "--run-id", "handover-001",
                "--format", "json", "-q"},
            new String[] {"demo", "changes", "--count", "500", "--seed", "2"},
            new String[] {"ops", "cdc-runtime-run", "--mode", "live", "--source", "mssql", "--sink", "clickhouse",
                "--backend", "mssql_cdc", "--pipeline-name", "sales-cdc", "--source-schema", "dbo", "--source-table",
                "sales", "--target-dataset", "analytics.sales_cdc", "--unique-key", "sale_id",
                "--source-connection-id", "mssql_demo", "--sink-connection-id", "clickhouse_default", "--format",
                "json"},
            new String[] {"ops", "cdc-materialize-clickhouse", "--cdc-dataset", "analytics.sales_cdc",
                "--target-dataset", "analytics.sales_current", "--unique-key", "sale_id", "--sink-connection-id",
                "clickhouse_default", "--output-dir", System.getenv("DPONE_HOME") + "/materialize", "--format",
                "json"});
        for (String[] step : steps) {
            int code = DponeCli.execute(step);
            System.out.println("step " + step[0] + " " + step[1] + " exit " + code);
            if (code != 0) {
                System.exit(code);
            }
        }
        ConnectionContext context = ConnectionContext.fromEnvironment();
        try (JdbcSourceReader source = JdbcSourceReader.open(context.resolve("mssql_demo", ConnectionType.MSSQL,
                "source"));
             ClickHouseEndpoint ch = ClickHouseEndpoints.open(context.resolve("clickhouse_default",
                 ConnectionType.CLICKHOUSE, "sink"))) {
            for (GateResult g : ServingGates.compare(source, new TableRef("dbo", "sales"), ch, "analytics",
                "sales_current")) {
                System.out.println("gate " + g.gate() + " " + g.status() + " " + g.details());
            }
            System.out.println("serving operations " + ch.query("SELECT dpone_cdc_operation, count() FROM "
                + "analytics.sales_current GROUP BY 1 ORDER BY 1"));
        }
        System.exit(0);
    }
}
