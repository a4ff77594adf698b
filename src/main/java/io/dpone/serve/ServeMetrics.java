package io.dpone.serve;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.ToDoubleFunction;

/**
 * Publishes the same numbers as the JMX beans to Camel's Micrometer registry, so {@code /observe/metrics} shows them
 * in Prometheus text format: {@code dpone_job_rows_moved_total{job=...}}, {@code dpone_route_rows_moved_total{route=...}},
 * {@code dpone_cdc_lag{stream=...}}, ... (the full list is in docs/operations.md). The meters read the stats objects;
 * nothing is counted twice.
 */
public final class ServeMetrics {
    private final MeterRegistry registry;

    public ServeMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    public void job(TransferStats s) {
        transfer("dpone.job", "job", s);
    }

    public void route(TransferStats s) {
        transfer("dpone.route", "route", s);
    }

    public void cdc(CdcStreamStats s) {
        counter("dpone.cdc.ticks", "stream", s.getName(), s, CdcStreamStats::getTicks);
        counter("dpone.cdc.failed.ticks", "stream", s.getName(), s, CdcStreamStats::getFailedTicks);
        counter("dpone.cdc.skipped.overlaps", "stream", s.getName(), s, CdcStreamStats::getSkippedOverlaps);
        counter("dpone.cdc.events.read", "stream", s.getName(), s, CdcStreamStats::getEventsRead);
        counter("dpone.cdc.events.applied", "stream", s.getName(), s, CdcStreamStats::getEventsApplied);
        gauge("dpone.cdc.lag", "stream", s.getName(), s, CdcStreamStats::getLag);
        gauge("dpone.cdc.last.duration.ms", "stream", s.getName(), s, CdcStreamStats::getLastDurationMs);
    }

    /** {@code dpone_connection_up{alias}}: 1 when the alias answers its round trip, else 0. */
    public void connection(ConnectionHealthCheck c) {
        gauge("dpone.connection.up", "alias", c.alias(), c, check -> check.up() ? 1 : 0);
    }

    private void transfer(String prefix, String tag, TransferStats s) {
        counter(prefix + ".rows.moved", tag, s.getName(), s, TransferStats::getRowsMoved);
        counter(prefix + ".bytes.moved", tag, s.getName(), s, TransferStats::getBytesMoved);
        counter(prefix + ".chunks.moved", tag, s.getName(), s, TransferStats::getChunksMoved);
        counter(prefix + ".runs", tag, s.getName(), s, TransferStats::getRuns);
        counter(prefix + ".failed.runs", tag, s.getName(), s, TransferStats::getFailedRuns);
        counter(prefix + ".skipped.overlaps", tag, s.getName(), s, TransferStats::getSkippedOverlaps);
        gauge(prefix + ".last.duration.ms", tag, s.getName(), s, TransferStats::getLastDurationMs);
        gauge(prefix + ".last.rows", tag, s.getName(), s, TransferStats::getLastRows);
        gauge(prefix + ".inflight.rows.scanned", tag, s.getName(), s, TransferStats::getInFlightRowsScanned);
        gauge(prefix + ".inflight.expected.rows", tag, s.getName(), s, TransferStats::getInFlightExpectedRows);
        gauge(prefix + ".inflight.chunks", tag, s.getName(), s, TransferStats::getInFlightChunks);
    }

    private <T> void counter(String name, String tag, String value, T obj, ToDoubleFunction<T> f) {
        FunctionCounter.builder(name, obj, f).tag(tag, value).register(registry);
    }

    private <T> void gauge(String name, String tag, String value, T obj, ToDoubleFunction<T> f) {
        Gauge.builder(name, obj, f).tag(tag, value).strongReference(true).register(registry);
    }
}
