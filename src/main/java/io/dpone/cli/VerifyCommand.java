package io.dpone.cli;

import io.dpone.cdc.StreamIdentity;
import io.dpone.cdc.verify.CdcVerifier;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseEndpoints;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.Redactor;
import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import io.dpone.report.ReportWriter;
import io.dpone.source.JdbcSourceReader;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code dpone ops cdc-verify}: compares a CDC serving dataset with its source table per key-hash bucket (see
 * {@link CdcVerifier}); {@code --repair} re-snapshots the differing buckets. Exit 0 when the report passed (verdict
 * {@code passed} or {@code repaired}; document on stdout), 1 when red (document on stderr, stdout empty), 2 for a
 * usage error (picocli).
 */
@Command(name = "cdc-verify", sortOptions = false, mixinStandardHelpOptions = true,
    description = "Prove that a CDC serving dataset equals its source table: per key-hash bucket, row count, key hash "
        + "and the full refresh's typed hash of every value; --repair re-snapshots only the buckets that differ.")
public final class VerifyCommand extends ReportCommand {
    @Option(names = "--pipeline-name", required = true, description = "the stream's pipeline name")
    String pipelineName;
    @Option(names = "--backend", required = true, description = "mssql_cdc or mssql_change_tracking")
    String backend;
    @Option(names = "--source-schema", required = true, description = "source schema, e.g. dbo")
    String sourceSchema;
    @Option(names = "--source-table", required = true, description = "source table, e.g. orders")
    String sourceTable;
    @Option(names = "--cdc-dataset", required = true, description = "the stream's CDC log, db.table")
    String cdcDataset;
    @Option(names = "--target-dataset", required = true,
        description = "the serving dataset the materializer publishes, db.table")
    String targetDataset;
    @Option(names = "--unique-key", required = true, description = "repeat for compound keys, in the stream's order")
    List<String> uniqueKeys;
    @Option(names = "--capture-instance",
        description = "mssql_cdc: the CDC capture instance (default: <source-schema>_<source-table>)")
    String captureInstance;
    @Option(names = "--source-connection-id", required = true, description = "SQL Server connection alias")
    String sourceConnectionId;
    @Option(names = "--sink-connection-id", required = true, description = "ClickHouse connection alias")
    String sinkConnectionId;
    @Option(names = "--checkpoint-json", description = "the stream's file checkpoint, when it does not use "
        + "<cdc db>.dpone_cdc_offsets")
    Path checkpointJson;
    @Option(names = "--buckets", defaultValue = "256",
        description = "key-hash buckets, a power of two 1..65536 (default: ${DEFAULT-VALUE})")
    int buckets;
    @Option(names = "--max-change-events", defaultValue = "1000000", description = "source changes the confirm "
        + "pass may read before the result is inconclusive (default: ${DEFAULT-VALUE})")
    int maxChangeEvents;
    @Option(names = "--value-policy", paramLabel = "COLUMN=POLICY", description = "the stream's value policy for "
        + "COLUMN (refuse, clamp, null or as_text), so the source is read as its ticks read it; repeatable")
    Map<String, String> valuePolicy;
    @Option(names = "--value-policy-default", paramLabel = "POLICY",
        description = "the stream's default value policy: refuse (default), clamp or null")
    String valuePolicyDefault;
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;
    @Option(names = "--repair", description = "re-snapshot the buckets that differ, then verify again")
    boolean repair;
    @Option(names = "--output-dir", description = "where cdc_verify.json/.md go "
        + "(default: $DPONE_HOME/reports/cdc-verify/TARGET_DATASET)")
    Path outputDir;

    public VerifyCommand() {
        this(ConnectionContext::fromEnvironment, System.out, System.err);
    }

    /** For embedding and tests: the connection context and the streams to print to. */
    public VerifyCommand(Supplier<ConnectionContext> context, PrintStream out, PrintStream err) {
        super(context, out, err);
    }

    @Override
    public Integer call() {
        io.dpone.manifest.ValuePolicies policies = CdcStreamOptions.policies(valuePolicy, valuePolicyDefault, spec);
        if (outputDir == null) {
            outputDir = io.dpone.connect.EmbeddedDefaults.home().resolve("reports").resolve("cdc-verify")
                .resolve(MaterializeCommand.defaultOutputDir(targetDataset).getFileName());
        }
        io.dpone.watchdog.PhaseWatchdog.runDirectory(outputDir);
        Map<String, Object> report;
        try {
            ConnectionContext c = context.get();
            ConnectionSpec source = c.resolve(sourceConnectionId, ConnectionType.MSSQL, "--source-connection-id");
            ConnectionSpec sink = c.resolve(sinkConnectionId, ConnectionType.CLICKHOUSE, "--sink-connection-id");
            StreamIdentity stream = new StreamIdentity(pipelineName, backend, sourceSchema, sourceTable, cdcDataset,
                uniqueKeys);
            try (ClickHouseEndpoint ch = ClickHouseEndpoints.open(sink);
                 JdbcSourceReader rows = JdbcSourceReader.open(source);
                 Connection positions = io.dpone.source.SourceConnections.open(source, "dpone-cdc-verify")) {
                report = new CdcVerifier(ch, rows, positions, outputDir.resolve("spool")).verify(
                    new CdcVerifier.Options(stream, captureInstance, targetDataset, buckets, repair, checkpointJson,
                        maxChangeEvents, policies), outputDir);
            } catch (SQLException e) {
                throw new DponeException(io.dpone.error.BlockerCode.SOURCE_READ_FAILED, "--source-connection-id",
                    "cannot close the source connection: " + e.getClass().getSimpleName());
            }
        } catch (DponeException e) {
            report = new LinkedHashMap<>();
            report.put("schema", CdcVerifier.SCHEMA);
            report.put("passed", false);
            report.put("verdict", "blocked");
            report.put("serving_dataset", targetDataset);
            report.put("blockers", e.blockers());
        }
        return answer(report, VerifyCommand::text);
    }

    @SuppressWarnings("unchecked")
    private static String text(Map<String, Object> r) {
        StringBuilder sb = new StringBuilder("cdc-verify ").append(r.get("serving_dataset")).append(": ")
            .append(r.get("verdict"));
        if (r.get("source_rows") != null) {
            sb.append(" (").append(r.get("source_rows")).append(" source row(s), ").append(r.get("serving_rows"))
                .append(" served, ").append(r.get("buckets")).append(" bucket(s), ")
                .append(CdcVerifier.mismatchedBuckets(r)).append(" mismatched)");
        }
        sb.append('\n');
        List<Blocker> blockers = (List<Blocker>) r.get("blockers");
        if (blockers != null && !blockers.isEmpty()) {
            sb.append(Output.blockersText(blockers));
        }
        return sb.toString();
    }
}
