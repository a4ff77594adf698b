package io.dpone.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.cdc.runtime.CdcRuntimeRunReport;
import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import io.dpone.retry.OperationKind;
import io.dpone.retry.RetrySettings;
import io.dpone.retry.RetryTally;
import io.dpone.testing.Manifests;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 35: a CDC stream's retry budget in the serve config ({@code cdc_streams[].retry}, over serve's
 * {@code retry:}, over the default), refused at its path when its backoff cannot work, and the ticks' retries
 * counted per operation kind in the stream's JMX bean and Prometheus series.
 */
class CdcStreamRetryTest {
    @TempDir
    Path dir;

    private static final String STREAM = """
        %s
        cdc_streams:
          - name: orders
            mode: live
            schedule: {every: 1s}
            source: mssql
            sink: clickhouse
            backend: mssql_cdc
            pipeline_name: orders-live
            source_schema: dbo
            source_table: orders
            target_dataset: db.orders_cdc
            unique_keys: [order_id]
            source_connection_id: mssql_demo
            sink_connection_id: clickhouse_demo
        %s
          - name: other
            schedule: {every: 1s}
            source: mssql
            sink: clickhouse
            backend: mssql_cdc
            pipeline_name: other
            source_schema: dbo
            source_table: other
            target_dataset: db.other
            unique_keys: [id]
            events_json: events.json
            checkpoint_json: checkpoint.json
            output_dir: out
        """;

    @Test
    void aStreamsRetryBlockIsItsTicksBudgetOverServesOverTheDefault() {
        Path manifest = Manifests.fullRefresh(dir, "sales", "db", null);
        ServeConfig config = ServeConfigLoader.load(ServeFixture.config(dir, manifest, "{every: 1h}",
            STREAM.formatted("retry: {max_retries: 7}", "    retry: {max_retries: 3, max_time: 10s, "
                + "initial_backoff: 50ms, max_backoff: 1s}")));
        assertEquals(new RetrySettings(3, Duration.ofSeconds(10), Duration.ofMillis(50), Duration.ofSeconds(1)),
            config.cdcStreams().get(0).options().retry());
        assertEquals(RetrySettings.DEFAULT.with(7, null, null, null), config.cdcStreams().get(1).options().retry(),
            "a stream without its own retry block runs under serve's");

        ServeConfig defaults = ServeConfigLoader.load(ServeFixture.config(dir, manifest, "{every: 1h}",
            STREAM.formatted("", "")));
        assertEquals(RetrySettings.DEFAULT, defaults.cdcStreams().get(0).options().retry());
    }

    @Test
    void aRetryBlockWhoseBackoffCannotWorkIsRefusedAtTheStreamsPath() {
        Path manifest = Manifests.fullRefresh(dir, "sales", "db", null);
        List<Blocker> blockers = assertThrows(DponeException.class, () -> ServeConfigLoader.load(
            ServeFixture.config(dir, manifest, "{every: 1h}", STREAM.formatted("",
                "    retry: {initial_backoff: 2s, max_backoff: 1s}")))).blockers();
        assertEquals(List.of("cdc_streams[0].retry"), blockers.stream().map(Blocker::subject).toList(),
            blockers.toString());
        assertEquals("serve.config_invalid", blockers.get(0).code());

        List<Blocker> unknown = assertThrows(DponeException.class, () -> ServeConfigLoader.load(
            ServeFixture.config(dir, manifest, "{every: 1h}", STREAM.formatted("",
                "    retry: {max_retires: 2}")))).blockers();
        assertTrue(unknown.stream().anyMatch(b -> b.subject().startsWith("cdc_streams[0].retry")),
            unknown.toString());
    }

    @Test
    void theTicksRetriesAreCountedPerOperationKindInJmxAndPrometheus() {
        CdcStreamStats stats = new CdcStreamStats("orders");
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new ServeMetrics(registry).cdc(stats);
        stats.record(report(true, new RetryTally(3, 120, Map.of("source_read", 2L, "chunk_insert", 1L), false, 20,
            300_000)));
        stats.record(report(false, new RetryTally(20, 900, Map.of("metadata_query", 20L), true, 20, 300_000)));
        stats.record(report(true, null));
        assertEquals(23, stats.getRetries());
        assertEquals(2, stats.getSourceReadRetries());
        assertEquals(1, stats.getChunkInsertRetries());
        assertEquals(20, stats.getMetadataQueryRetries());
        assertEquals(1, stats.getRetryBudgetExhaustedTicks());
        assertEquals(2.0, registry.get("dpone.cdc.retries").tags("stream", "orders", "operation",
            OperationKind.SOURCE_READ.key()).functionCounter().count());
        assertEquals(20.0, registry.get("dpone.cdc.retries").tags("stream", "orders", "operation",
            OperationKind.METADATA_QUERY.key()).functionCounter().count());
        assertEquals(1.0, registry.get("dpone.cdc.retry.budget.exhausted.ticks").tags("stream", "orders")
            .functionCounter().count());
    }

    private static CdcRuntimeRunReport report(boolean passed, RetryTally retries) {
        return new CdcRuntimeRunReport(CdcRuntimeRunReport.SCHEMA, "cdc-1", "live", passed, false, "blocked",
            Map.of(), null, null, null, null, null, new CdcRuntimeRunReport.Counts(0, 0, 0, 0, 0, 0), List.of(), null,
            passed ? List.of() : List.of(Blocker.of(io.dpone.error.BlockerCode.RETRY_BUDGET_EXHAUSTED, "x", "spent")),
            null, Instant.now(), Instant.now(), Map.of(), List.of(), List.of(), retries, null);
    }
}
