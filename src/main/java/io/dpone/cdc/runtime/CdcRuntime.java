package io.dpone.cdc.runtime;

import io.dpone.cdc.CdcSinkApplier;
import io.dpone.cdc.EventIdentityIdempotency;
import io.dpone.cdc.clickhouse.ClickHouseCdcSinkApplier;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseEndpoints;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.cdc.local.FileOffsetStore;
import io.dpone.cdc.local.FileTickFence;
import io.dpone.cdc.local.JsonEventsReader;
import io.dpone.cdc.local.LocalSinkApplier;
import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import java.security.SecureRandom;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.List;

/**
 * The Java API of {@code dpone ops cdc-runtime-run}: validates the options, wires the adapters of the mode and runs
 * one tick through the {@code cdc_runtime_tick} route.
 */
public final class CdcRuntime {
    private static final DateTimeFormatter RUN_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");
    private static final SecureRandom RANDOM = new SecureRandom();

    private CdcRuntime() {
    }

    /** Runs one tick. Invalid options throw {@link DponeException} with every blocker and change nothing. */
    public static CdcRuntimeRunReport run(CdcRunOptions options) {
        return run(options, ConnectionContext.fromEnvironment(), CdcTickRunner::run);
    }

    /**
     * Runs one tick of any mode with the aliases of {@code context}, through {@code runner}: its own camel-main
     * context ({@link CdcTickRunner#run(CdcTick)}) for the CLI, the pod's context in {@code serve}.
     */
    public static CdcRuntimeRunReport run(CdcRunOptions options, ConnectionContext context,
                                          java.util.function.Function<CdcTick, CdcRuntimeRunReport> runner) {
        if (options.mode() == CdcMode.live) {
            return LiveCdcRuntime.run(options, context, runner);
        }
        if (options.sinkConnectionId() == null) {
            return runner.apply(tick(options, newRunId(), null));
        }
        List<Blocker> problems = options.validate();
        if (!problems.isEmpty()) {
            throw new DponeException(problems);
        }
        // issue 35: the batch inserts (token-deduplicated) and the reads retry transient faults under the tick's budget
        // (options.retry()); the offset commit and every other statement run once (commit_offset reconciles a
        // transient fault by reading the checkpoint back)
        io.dpone.retry.RetryBudget budget = new io.dpone.retry.RetryBudget(options.retry());
        try (ClickHouseEndpoint ch = new io.dpone.clickhouse.RetryingClickHouseEndpoint(ClickHouseEndpoints.open(
                context.resolve(options.sinkConnectionId(), ConnectionType.CLICKHOUSE, "--sink-connection-id")),
                budget)) {
            return runner.apply(tick(options, newRunId(), ch).retries(budget));
        }
    }

    /**
     * The tick for {@code options} in local mode: the events JSON reader and the checkpoint file, applying to the
     * local sink files, or, when {@code clickhouse} is given ({@code --sink-connection-id}), to the append-only
     * ClickHouse CDC log.
     */
    public static CdcTick tick(CdcRunOptions options, String runId, ClickHouseEndpoint clickhouse) {
        List<Blocker> problems = options.validate();
        if (!problems.isEmpty()) {
            throw new DponeException(problems);
        }
        EventIdentityIdempotency identity = new EventIdentityIdempotency();
        CdcSinkApplier sink = clickhouse == null
            ? new LocalSinkApplier(options.outputDir().resolve("sink"), identity)
            : ClickHouseCdcSinkApplier.forStream(clickhouse, options.stream(), identity,
                options.outputDir().resolve("sink").resolve("spool"));
        CdcTick.Adapters adapters = new CdcTick.Adapters(
            new JsonEventsReader(options.eventsJson(), options.stream()), identity, sink,
            new FileOffsetStore(options.checkpointJson()),
            FileTickFence.of(options.checkpointJson(), options.outputDir().resolve("sink")));
        return new CdcTick(runId, options, adapters, options.batchSize());
    }

    /** {@code cdc-<UTC yyyyMMddTHHmmssZ>-<8 hex>}. */
    public static String newRunId() {
        byte[] b = new byte[4];
        RANDOM.nextBytes(b);
        return "cdc-" + ZonedDateTime.now(ZoneOffset.UTC).format(RUN_TIME) + "-" + HexFormat.of().formatHex(b);
    }
}
