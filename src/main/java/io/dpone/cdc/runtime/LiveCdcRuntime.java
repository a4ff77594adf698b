package io.dpone.cdc.runtime;

import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.local.FileTickFence;
import io.dpone.cdc.mssql.LiveReaders;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseEndpoints;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * {@code dpone ops cdc-runtime-run --mode live}: the source alias's live reader ({@code mssql_cdc} or
 * {@code mssql_change_tracking}), the ClickHouse CDC log of {@code --target-dataset} and the ClickHouse offset
 * table {@code <target db>.dpone_cdc_offsets}, run through the same {@code cdc_runtime_tick} route as local mode.
 * Aliases come from the connection context ({@code DPONE_RUNTIME_CONNECTION_CONTEXT} or the embedded default);
 * credentials from the alias's {@code password_env} / {@code password_file}, which must match
 * {@code --credentials-source} when it is given.
 */
public final class LiveCdcRuntime {
    private LiveCdcRuntime() {
    }

    public static CdcRuntimeRunReport run(CdcRunOptions options, ConnectionContext context) {
        return run(options, context, CdcTickRunner::run);
    }

    /** As above, running the tick through {@code runner} (the pod's camel context in {@code serve}). */
    public static CdcRuntimeRunReport run(CdcRunOptions options, ConnectionContext context,
                                          java.util.function.Function<CdcTick, CdcRuntimeRunReport> runner) {
        List<Blocker> problems = new ArrayList<>(options.validate());
        if (options.sourceConnectionId() != null) {
            context.check(options.sourceConnectionId(), ConnectionType.MSSQL, "--source-connection-id")
                .ifPresent(problems::add);
        }
        if (options.sinkConnectionId() != null) {
            context.check(options.sinkConnectionId(), ConnectionType.CLICKHOUSE, "--sink-connection-id")
                .ifPresent(problems::add);
        }
        if (problems.isEmpty()) {
            credentialSource(options, context, options.sourceConnectionId(), "--source-connection-id")
                .ifPresent(problems::add);
            credentialSource(options, context, options.sinkConnectionId(), "--sink-connection-id")
                .ifPresent(problems::add);
        }
        if (!problems.isEmpty()) {
            throw new DponeException(problems);
        }
        ConnectionSpec source = context.resolve(options.sourceConnectionId(), ConnectionType.MSSQL,
            "--source-connection-id");
        ConnectionSpec sink = context.resolve(options.sinkConnectionId(), ConnectionType.CLICKHOUSE,
            "--sink-connection-id");
        Path spool = spoolDir(options);
        // issue 35: one retry budget per tick (options.retry(): --max-retries..., a serve stream's retry:). The source
        // reads (the connect, then the batch on a fresh connection after a dropped one), the token-deduplicated log
        // inserts and the read-only queries retry transient faults under it; the offset commit and every other
        // statement run once (commit_offset reconciles a transient fault by reading the checkpoint back)
        io.dpone.retry.RetryBudget budget = new io.dpone.retry.RetryBudget(options.retry());
        java.util.function.Supplier<Connection> open = () -> io.dpone.source.SourceConnections.open(source,
            "dpone-cdc");
        try (ReconnectingCdcReader.Session session = new ReconnectingCdcReader.Session(
                 budget.call(io.dpone.retry.OperationKind.SOURCE_READ, open), open);
             ClickHouseEndpoint ch = new io.dpone.clickhouse.RetryingClickHouseEndpoint(ClickHouseEndpoints.open(sink),
                 budget)) {
            CdcTick tick = tick(options, CdcRuntime.newRunId(), session::connection, (stream, instance) ->
                new ReconnectingCdcReader(session, c -> LiveReaders.reader(options.backend(), c, stream, instance,
                    options.valuePolicies(), options.allowCaptureInstanceDdl()), budget), ch, spool);
            return runner.apply(tick.retries(budget));
        } finally {
            if (options.outputDir() == null) {
                deleteTree(spool);
            }
        }
    }

    /** The live tick on connections already open (tests and benchmarks). */
    public static CdcTick tick(CdcRunOptions options, String runId, Connection source, ClickHouseEndpoint ch,
                               Path spoolDir) {
        return tick(options, runId, () -> source, (stream, instance) -> LiveReaders.reader(options.backend(), source,
            stream, instance, options.valuePolicies(), options.allowCaptureInstanceDdl()), ch, spoolDir);
    }

    /**
     * The live tick with the readers {@code readers} builds: for a table's stream identity and its capture instance
     * (null: the default), the table's reader; {@code catalogue} is the source connection the table patterns are
     * resolved on.
     */
    private static CdcTick tick(CdcRunOptions options, String runId,
                                java.util.function.Supplier<Connection> catalogue,
                                java.util.function.BiFunction<io.dpone.cdc.StreamIdentity, String,
                                    io.dpone.cdc.CdcSourceReader> readers, ClickHouseEndpoint ch, Path spoolDir) {
        List<Blocker> problems = options.validate();
        if (!problems.isEmpty()) {
            throw new DponeException(problems);
        }
        CdcTick.Adapters adapters;
        java.util.Map<String, Object> selection = null;
        if (options.selection() != null) {
            // the patterns are resolved against the capture instances on every tick: a table enabled since joins
            TableSelections.Resolution resolved = TableSelections.resolve(options, catalogue.get());
            options = resolved.options();
            selection = resolved.report();
        }
        if (options.multiTable()) {
            // one reader per table, each on its capture instance, all on the one source connection; a table added to
            // the running stream takes its snapshot through its reader
            CdcRunOptions o = options;
            java.util.List<io.dpone.cdc.CdcSourceReader> tableReaders = new ArrayList<>();
            java.util.List<java.util.function.Function<io.dpone.cdc.CdcOffset, io.dpone.cdc.CdcBatch>> snapshots =
                new ArrayList<>();
            for (int i = 0; i < o.tables().size(); i++) {
                io.dpone.cdc.CdcSourceReader r = readers.apply(o.stream().tables().get(i),
                    o.tables().get(i).captureInstance());
                tableReaders.add(r);
                snapshots.add(r instanceof io.dpone.cdc.mssql.SqlServerCdcReader cdc ? cdc::snapshot
                    : r instanceof ReconnectingCdcReader again ? again.snapshots() : null);
            }
            adapters = ClickHouseCdcAdapters.adapters(tableReaders, snapshots, ch, o.stream(), spoolDir);
            if (selection != null) {
                adapters.lanes().withSelection(selection);
            }
        } else {
            adapters = ClickHouseCdcAdapters.adapters(readers.apply(options.stream(), options.captureInstance()), ch,
                options.stream(), spoolDir);
        }
        if (options.outputDir() != null) {
            adapters = adapters.withFence(FileTickFence.of(null, options.outputDir().resolve("sink")));
        }
        return new CdcTick(runId, options, adapters, options.batchSize());
    }

    private static Optional<Blocker> credentialSource(CdcRunOptions options, ConnectionContext context, String alias,
                                                      String subject) {
        String wanted = options.credentialsSource();
        ContextEntry e = context.entry(alias).orElseThrow();
        if (wanted == null || (e.passwordEnv() == null && e.passwordFile() == null)) {
            return Optional.empty();
        }
        boolean matches = wanted.equals("env") ? e.passwordEnv() != null : e.passwordFile() != null;
        return matches ? Optional.empty() : Optional.of(CdcBlockers.blocker(CdcBlockers.INVALID_ARGUMENT, subject,
            "--credentials-source " + wanted + " but alias '" + alias + "' takes its credential from "
                + (e.passwordEnv() != null ? "password_env" : "password_file")));
    }

    private static Path spoolDir(CdcRunOptions options) {
        try {
            return options.outputDir() != null ? options.outputDir().resolve("sink").resolve("spool")
                : Files.createTempDirectory("dpone-cdc-spool-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteTree(Path root) {
        try (var paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | UncheckedIOException e) {
            // a leftover temporary spool directory only costs disk
        }
    }
}
