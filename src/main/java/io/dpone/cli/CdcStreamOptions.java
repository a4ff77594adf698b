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
    // the four single-table options are required unless --table names the tables (checked in builder(), as a
    // usage error like picocli's own)
    @Option(names = "--source-schema", description = "source schema, e.g. dbo")
    String sourceSchema;
    @Option(names = "--source-table", description = "source table, e.g. orders")
    String sourceTable;
    @Option(names = "--target-dataset", description = "db.table")
    String targetDataset;
    @Option(names = "--unique-key", description = "repeat for compound keys")
    List<String> uniqueKeys;
    @Option(names = "--table", paramLabel = "SCHEMA.TABLE=DB.TABLE:KEY[,KEY...]", description = "live mssql_cdc: "
        + "one table of a multi-table stream, its CDC log and its unique keys; repeat per table (instead of "
        + "--source-schema, --source-table, --target-dataset and --unique-key)")
    List<String> tables;
    @Option(names = "--include-table", paramLabel = "PATTERN", description = "live mssql_cdc: a multi-table stream of "
        + "every table this glob on schema.table (or table) matches, resolved against the capture instances on every "
        + "tick (as dpone discover's --include); repeatable, instead of --table")
    List<String> includeTables;
    @Option(names = "--exclude-table", paramLabel = "PATTERN", description = "live mssql_cdc: leave out the tables "
        + "this glob matches; repeatable")
    List<String> excludeTables;
    @Option(names = "--target-template", paramLabel = "DB.NAME", description = "with --include-table: each matched "
        + "table's CDC log, {schema} and {table} replaced (default: <db>.{schema}_{table}_cdc; DB is required)")
    String targetTemplate;
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
        boolean patterns = includeTables != null || excludeTables != null || targetTemplate != null;
        if (patterns && tables != null && !tables.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--table names the tables; "
                + "--include-table/--exclude-table/--target-template choose them by patterns: use one or the other");
        }
        if (patterns && (includeTables == null || targetTemplate == null)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "Missing required option: "
                + (includeTables == null ? "'--include-table=<PATTERN>'" : "'--target-template=<DB.NAME>'")
                + " (a stream chosen by patterns needs both)");
        }
        if (!patterns && (tables == null || tables.isEmpty())) {
            List<String> missing = new java.util.ArrayList<>();
            Object[][] single = {{"--source-schema=<sourceSchema>", sourceSchema},
                                 {"--source-table=<sourceTable>", sourceTable},
                                 {"--target-dataset=<targetDataset>", targetDataset},
                                 {"--unique-key=<uniqueKeys>", uniqueKeys}};
            for (Object[] o : single) {
                if (o[1] == null) {
                    missing.add("'" + o[0] + "'");
                }
            }
            if (!missing.isEmpty()) {
                throw new CommandLine.ParameterException(spec.commandLine(), "Missing required option"
                    + (missing.size() > 1 ? "s" : "") + ": " + String.join(", ", missing)
                    + " (or --table or --include-table for a multi-table stream)");
            }
        }
        return CdcRunOptions.builder(mode).systems(source, sink).backend(backend).pipelineName(pipelineName)
            .sourceTable(sourceSchema, sourceTable).targetDataset(targetDataset).uniqueKeys(uniqueKeys)
            .credentialsSource(credentialsSource).captureInstance(captureInstance).maxEvents(maxEvents)
            .valuePolicies(policies()).tables(tables())
            .selection(patterns ? new CdcRunOptions.TableSelection(includeTables, excludeTables, targetTemplate)
                : null);
    }

    /** {@code --table} as parsed; a value without the shape {@code SCHEMA.TABLE=DB.TABLE:KEY[,KEY...]} is a usage error. */
    private List<CdcRunOptions.Table> tables() {
        if (tables == null) {
            return List.of();
        }
        List<CdcRunOptions.Table> out = new java.util.ArrayList<>();
        for (String t : tables) {
            try {
                out.add(CdcRunOptions.Table.parse(t));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        return out;
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
