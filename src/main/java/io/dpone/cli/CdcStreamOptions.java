package io.dpone.cli;

import io.dpone.cdc.runtime.CdcMode;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.manifest.ValuePolicies;
import io.dpone.manifest.ValuePolicy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The options that name a CDC stream and how it is read, shared by {@code ops cdc-runtime-run} and
 * {@code ops cdc-promotion-bundle} (a picocli mixin), so both commands spell and check them alike.
 */
final class CdcStreamOptions {
    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--source", required = true, description = "source system, e.g. mssql")
    String source;
    @Option(names = "--sink", required = true, description = "sink system, e.g. clickhouse")
    String sink;
    @Option(names = "--backend", required = true, description = "CDC backend: mssql_cdc or mssql_change_tracking "
        + "(live), or the events' backend (local)")
    String backend;
    @Option(names = "--pipeline-name", required = true, description = "pipeline name, e.g. orders-cdc")
    String pipelineName;
    @Option(names = "--source-schema", required = true, description = "source schema, e.g. dbo")
    String sourceSchema;
    @Option(names = "--source-table", required = true, description = "source table, e.g. orders")
    String sourceTable;
    @Option(names = "--target-dataset", required = true, description = "db.table")
    String targetDataset;
    @Option(names = "--unique-key", required = true, description = "repeat for compound keys")
    List<String> uniqueKeys;
    @Option(names = "--credentials-source", description = "live: env or file")
    String credentialsSource;
    @Option(names = "--capture-instance",
        description = "live mssql_cdc: the CDC capture instance (default: <source-schema>_<source-table>)")
    String captureInstance;
    @Option(names = "--max-events", description = "changes per tick, 1..1000000 (default: 100000)")
    Integer maxEvents;
    @Option(names = "--value-policy", paramLabel = "COLUMN=POLICY", description = "live: what the reader does with "
        + "a value ClickHouse cannot hold in COLUMN: refuse, clamp, null or as_text (sql_variant); repeatable")
    Map<String, String> valuePolicy;
    @Option(names = "--value-policy-default", paramLabel = "POLICY", description = "live: the policy of every "
        + "range-limited column without its own --value-policy: refuse (default), clamp or null")
    String valuePolicyDefault;

    /** The stream's options in {@code mode}; the command adds its connections and files. */
    CdcRunOptions.Builder builder(CdcMode mode) {
        return CdcRunOptions.builder(mode).systems(source, sink).backend(backend).pipelineName(pipelineName)
            .sourceTable(sourceSchema, sourceTable).targetDataset(targetDataset).uniqueKeys(uniqueKeys)
            .credentialsSource(credentialsSource).captureInstance(captureInstance).maxEvents(maxEvents)
            .valuePolicies(policies());
    }

    /** {@code --value-policy} and {@code --value-policy-default}; an unknown policy is a usage error. */
    private ValuePolicies policies() {
        return policies(valuePolicy, valuePolicyDefault, spec);
    }

    /**
     * The value policies of {@code --value-policy COLUMN=POLICY} (may be null) and {@code --value-policy-default}
     * (may be null); an unknown policy is a usage error of {@code spec}'s command.
     */
    static ValuePolicies policies(Map<String, String> valuePolicy, String valuePolicyDefault,
                                  CommandLine.Model.CommandSpec spec) {
        Map<String, ValuePolicy> columns = new LinkedHashMap<>();
        if (valuePolicy != null) {
            valuePolicy.forEach((column, text) -> columns.put(column, policy(spec, "--value-policy " + column, text)));
        }
        return new ValuePolicies(valuePolicyDefault == null ? null
            : policy(spec, "--value-policy-default", valuePolicyDefault), columns);
    }

    private static ValuePolicy policy(CommandLine.Model.CommandSpec spec, String option, String text) {
        return ValuePolicy.parse(text).orElseThrow(() -> new CommandLine.ParameterException(spec.commandLine(),
            option + ": unknown policy '" + text + "' (refuse, clamp, null or as_text)"));
    }
}
