package io.dpone.certify;

import io.dpone.connect.ConnectionType;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.camel.DponeCamel;
import io.dpone.route.PrepareObjectStorageProcessor;
import io.dpone.route.ProbeResult;
import io.dpone.route.TransferRun;
import io.dpone.source.SourceReader;
import java.util.List;
import org.apache.camel.Exchange;
import org.apache.camel.support.DefaultExchange;

/**
 * {@code preflight_only}: probes a route without reading source data: ClickHouse answers, the source table can
 * be described (metadata only), and for object-storage routes the spec's capability probes run exactly as the
 * route's own first step runs them.
 */
final class RoutePreflight {
    private final DponeCamel camel;

    RoutePreflight(DponeCamel camel) {
        this.camel = camel;
    }

    /**
     * Probes the route, recording each probe's result on {@code run} ({@link TransferRun#probes()}): ClickHouse
     * answers ({@code clickhouse_query}), the source table can be described ({@code source_metadata}), then the
     * object-storage probes. Returns the blockers.
     */
    List<Blocker> probe(TransferRun run) {
        String route = run.plan().routeId();
        String step = "clickhouse_query";
        long t0 = System.nanoTime();
        try {
            run.openClickHouse().operations().ping();
            run.addProbe(ProbeResult.passed(route, step, BlockerCode.CONNECTION_FAILED.code(), t0, null));
            step = "source_metadata";
            t0 = System.nanoTime();
            try (SourceReader source = run.plan().connectors().source(run.plan().context().resolve(
                    run.plan().manifest().source().connectionRef(), ConnectionType.MSSQL, "source.connection_ref"))) {
                source.describe(run.plan().manifest().source().table(), run.plan().manifest().source().columns());
            }
            run.addProbe(ProbeResult.passed(route, step, BlockerCode.SOURCE_TABLE_MISSING.code(), t0, null));
            step = null;
            if (route.startsWith("object_storage_pull")) {
                Exchange exchange = new DefaultExchange(camel.context());
                exchange.getIn().setBody(run);
                exchange.setProperty(PrepareObjectStorageProcessor.PULL_FUNCTION,
                    route.endsWith("s3cluster") ? "s3Cluster" : "s3");
                new PrepareObjectStorageProcessor().process(exchange);
            }
            return List.of();
        } catch (DponeException e) {
            failed(run, step, t0, e.blockers());
            return e.blockers();
        } catch (RuntimeException e) {
            List<Blocker> b = List.of(Blocker.of(BlockerCode.INTERNAL_ERROR, route,
                io.dpone.connect.Redactor.global().describe(e)));
            failed(run, step, t0, b);
            return b;
        } finally {
            run.resources().close();
        }
    }

    /** The generic probe that was running when {@code blockers} arose (the object-storage probes record their own). */
    private static void failed(TransferRun run, String step, long t0, List<Blocker> blockers) {
        if (step != null) {
            run.addProbe(ProbeResult.failed(run.plan().routeId(), step, blockers.get(0).code(), t0,
                blockers.get(0).message()));
        }
    }
}
