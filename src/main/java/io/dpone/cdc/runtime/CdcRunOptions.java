package io.dpone.cdc.runtime;

import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.StreamIdentity;
import io.dpone.error.Blocker;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The inputs of one {@code dpone ops cdc-runtime-run} tick (one field per CLI option). {@code captureInstance}
 * (live {@code mssql_cdc} only; default {@code <schema>_<table>}) and {@code maxEvents} (default
 * {@link CdcTick#DEFAULT_MAX_EVENTS}) may be null.
 */
public record CdcRunOptions(CdcMode mode, String source, String sink, String backend, String pipelineName,
                            String sourceSchema, String sourceTable, String targetDataset, List<String> uniqueKeys,
                            Path eventsJson, Path checkpointJson, Path outputDir, String sourceConnectionId,
                            String sinkConnectionId, String credentialsSource, String captureInstance,
                            Integer maxEvents) {
    /** Live backends: SQL Server CDC change tables and SQL Server Change Tracking. */
    public static final List<String> LIVE_BACKENDS = List.of("mssql_cdc", "mssql_change_tracking");
    public static final int MAX_EVENTS_LIMIT = 1_000_000;
    public static final Pattern IDENTIFIER = io.dpone.manifest.Identifier.PATTERN;
    /** Pipeline names and connection ids may also hold {@code -} and {@code .} ({@code orders-cdc}). */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,127}");

    public CdcRunOptions {
        mode = mode == null ? CdcMode.local : mode;
        uniqueKeys = uniqueKeys == null ? List.of() : List.copyOf(uniqueKeys);
    }

    /** Options without a capture instance or batch size (their defaults apply). */
    public CdcRunOptions(CdcMode mode, String source, String sink, String backend, String pipelineName,
                         String sourceSchema, String sourceTable, String targetDataset, List<String> uniqueKeys,
                         Path eventsJson, Path checkpointJson, Path outputDir, String sourceConnectionId,
                         String sinkConnectionId, String credentialsSource) {
        this(mode, source, sink, backend, pipelineName, sourceSchema, sourceTable, targetDataset, uniqueKeys,
            eventsJson, checkpointJson, outputDir, sourceConnectionId, sinkConnectionId, credentialsSource, null,
            null);
    }

    /** The batch bound of a tick. */
    public int batchSize() {
        return maxEvents == null ? CdcTick.DEFAULT_MAX_EVENTS : maxEvents;
    }

    public StreamIdentity stream() {
        return new StreamIdentity(pipelineName, backend, sourceSchema, sourceTable, targetDataset, uniqueKeys);
    }

    /** Every problem with the values, before any side effect (an empty list means the tick may run). */
    public List<Blocker> validate() {
        List<Blocker> out = new ArrayList<>();
        identifier(out, "--source", source);
        identifier(out, "--sink", sink);
        identifier(out, "--backend", backend);
        name(out, "--pipeline-name", pipelineName);
        identifier(out, "--source-schema", sourceSchema);
        identifier(out, "--source-table", sourceTable);
        String[] dataset = targetDataset == null ? new String[0] : targetDataset.split("\\.", -1);
        if (dataset.length != 2 || !IDENTIFIER.matcher(dataset[0]).matches()
            || !IDENTIFIER.matcher(dataset[1]).matches()) {
            out.add(invalid("--target-dataset", "--target-dataset must be db.table, each part matching "
                + IDENTIFIER.pattern()));
        }
        if (uniqueKeys.isEmpty()) {
            out.add(invalid("--unique-key", "at least one --unique-key is required"));
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < uniqueKeys.size(); i++) {
            identifier(out, "--unique-key[" + i + "]", uniqueKeys.get(i));
            if (!seen.add(uniqueKeys.get(i))) {
                out.add(invalid("--unique-key[" + i + "]", "--unique-key " + uniqueKeys.get(i) + " is repeated"));
            }
        }
        if (credentialsSource != null && !credentialsSource.equals("env") && !credentialsSource.equals("file")) {
            out.add(invalid("--credentials-source", "--credentials-source must be env or file"));
        }
        if (sourceConnectionId != null) {
            name(out, "--source-connection-id", sourceConnectionId);
        }
        if (sinkConnectionId != null) {
            name(out, "--sink-connection-id", sinkConnectionId);
        }
        if (mode == CdcMode.local) {
            required(out, "--events-json", eventsJson);
            required(out, "--checkpoint-json", checkpointJson);
            required(out, "--output-dir", outputDir);
            if (sourceConnectionId != null) {
                out.add(invalid("--source-connection-id", "--mode local reads --events-json; "
                    + "--source-connection-id is for --mode live"));
            }
            if (captureInstance != null) {
                out.add(invalid("--capture-instance", "--capture-instance is for --mode live"));
            }
        } else {
            validateLive(out);
        }
        if (maxEvents != null && (maxEvents < 1 || maxEvents > MAX_EVENTS_LIMIT)) {
            out.add(invalid("--max-events", "--max-events must be 1.." + MAX_EVENTS_LIMIT));
        }
        return out;
    }

    private void validateLive(List<Blocker> out) {
        if (backend != null && !LIVE_BACKENDS.contains(backend)) {
            out.add(CdcBlockers.blocker(CdcBlockers.MODE_UNSUPPORTED, "--backend", "--mode live reads --backend "
                + String.join(" or ", LIVE_BACKENDS) + "; no live reader exists for this backend"));
        }
        if (sourceConnectionId == null) {
            out.add(invalid("--source-connection-id", "--source-connection-id is required with --mode live"));
        }
        if (sinkConnectionId == null) {
            out.add(invalid("--sink-connection-id", "--sink-connection-id is required with --mode live"));
        }
        if (eventsJson != null) {
            out.add(invalid("--events-json", "--mode live reads the source connection; --events-json is for "
                + "--mode local"));
        }
        if (checkpointJson != null) {
            out.add(invalid("--checkpoint-json", "--mode live commits to the ClickHouse offset table "
                + "<target db>.dpone_cdc_offsets; --checkpoint-json is for --mode local"));
        }
        if (captureInstance != null) {
            identifier(out, "--capture-instance", captureInstance);
            if (!"mssql_cdc".equals(backend)) {
                out.add(invalid("--capture-instance", "--capture-instance is for --backend mssql_cdc"));
            }
        }
    }

    private static void identifier(List<Blocker> out, String option, String value) {
        if (value == null) {
            out.add(invalid(option, option + " is required"));
        } else if (!IDENTIFIER.matcher(value).matches()) {
            out.add(invalid(option, option + " must match " + IDENTIFIER.pattern()));
        }
    }

    private static void name(List<Blocker> out, String option, String value) {
        if (value == null) {
            out.add(invalid(option, option + " is required"));
        } else if (!NAME.matcher(value).matches()) {
            out.add(invalid(option, option + " must be 1-128 letters, digits, '_', '.', '-' starting with a "
                + "letter or digit"));
        }
    }

    private static void required(List<Blocker> out, String option, Object value) {
        if (value == null) {
            out.add(invalid(option, option + " is required with --mode local"));
        }
    }

    private static Blocker invalid(String option, String message) {
        return CdcBlockers.blocker(CdcBlockers.INVALID_ARGUMENT, option, message);
    }
}
