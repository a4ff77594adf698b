package io.dpone.certify;

import io.dpone.connect.ConnectionType;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.route.DponeCamel;
import io.dpone.route.PrepareObjectStorageProcessor;
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

    List<Blocker> probe(TransferRun run) {
        try {
            run.openClickHouse().query("SELECT 1");
            try (SourceReader source = run.plan().connectors().source(run.plan().context().resolve(
                    run.plan().manifest().source().connectionRef(), ConnectionType.MSSQL, "source.connection_ref"))) {
                source.describe(run.plan().manifest().source().table(), run.plan().manifest().source().columns());
            }
            if (run.plan().routeId().startsWith("object_storage_pull")) {
                Exchange exchange = new DefaultExchange(camel.context());
                exchange.getIn().setBody(run);
                exchange.setProperty(PrepareObjectStorageProcessor.PULL_FUNCTION,
                    run.plan().routeId().endsWith("s3cluster") ? "s3Cluster" : "s3");
                new PrepareObjectStorageProcessor().process(exchange);
            }
            return List.of();
        } catch (DponeException e) {
            return e.blockers();
        } catch (RuntimeException e) {
            return List.of(Blocker.of(BlockerCode.INTERNAL_ERROR, run.plan().routeId(),
                io.dpone.connect.Redactor.global().describe(e)));
        } finally {
            run.resources().close();
        }
    }
}
