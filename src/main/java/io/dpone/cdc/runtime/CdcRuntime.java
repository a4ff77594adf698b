package io.dpone.cdc.runtime;

import io.dpone.cdc.EventIdentityIdempotency;
import io.dpone.cdc.local.FileOffsetStore;
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
        return CdcTickRunner.run(tick(options, newRunId()));
    }

    /** The tick for {@code options} (local mode: events JSON, local sink, checkpoint file). */
    public static CdcTick tick(CdcRunOptions options, String runId) {
        List<Blocker> problems = options.validate();
        if (!problems.isEmpty()) {
            throw new DponeException(problems);
        }
        EventIdentityIdempotency identity = new EventIdentityIdempotency();
        CdcTick.Adapters adapters = new CdcTick.Adapters(
            new JsonEventsReader(options.eventsJson(), options.stream()), identity,
            new LocalSinkApplier(options.outputDir().resolve("sink"), identity),
            new FileOffsetStore(options.checkpointJson()));
        return new CdcTick(runId, options, adapters, CdcTick.DEFAULT_MAX_EVENTS);
    }

    /** {@code cdc-<UTC yyyyMMddTHHmmssZ>-<8 hex>}. */
    public static String newRunId() {
        byte[] b = new byte[4];
        RANDOM.nextBytes(b);
        return "cdc-" + ZonedDateTime.now(ZoneOffset.UTC).format(RUN_TIME) + "-" + HexFormat.of().formatHex(b);
    }
}
