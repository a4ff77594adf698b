package io.dpone.serve;

import io.dpone.connect.Redactor;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.management.ObjectName;
import org.apache.camel.CamelContext;
import org.apache.camel.spi.ManagementAgent;

/**
 * Publishes serve's statistics objects twice, with the same numbers: as MBeans {@code io.dpone:type=<type>,name=<name>}
 * through Camel's management agent (unregistered when the context stops), and as Micrometer meters in Camel's
 * Prometheus registry ({@link ServeMetrics}). Per-route statistics are created on a route's first run.
 */
final class Inspection {
    private final ManagementAgent agent;
    private final ServeMetrics metrics;
    private final Map<String, TransferStats> routes = new ConcurrentHashMap<>();

    Inspection(CamelContext context) {
        this.agent = context.getManagementStrategy().getManagementAgent();
        MeterRegistry meters = context.getRegistry().findSingleByType(MeterRegistry.class);
        this.metrics = meters == null ? null : new ServeMetrics(meters);
    }

    void job(TransferStats stats) {
        bean(stats, "jobs", stats.getName());
        if (metrics != null) {
            metrics.job(stats);
        }
    }

    void fleet(FleetStats stats) {
        bean(stats, "fleets", stats.getName());
        if (metrics != null) {
            metrics.fleet(stats);
        }
    }

    void cdc(CdcStreamStats stats) {
        bean(stats, "cdc", stats.getName());
        if (metrics != null) {
            metrics.cdc(stats);
        }
    }

    void connection(ConnectionHealthCheck check) {
        if (metrics != null) {
            metrics.connection(check);
        }
    }

    /** The statistics of transfer route {@code routeId}, published on first use. */
    TransferStats route(String routeId) {
        return routes.computeIfAbsent(routeId, id -> {
            TransferStats s = new TransferStats(id);
            bean(s, "routes", id);
            if (metrics != null) {
                metrics.route(s);
            }
            return s;
        });
    }

    void bean(Object bean, String type, String name) {
        if (agent == null) {
            return;
        }
        try {
            agent.register(bean, new ObjectName(ServeRuntime.DOMAIN + ":type=" + type + ",name=" + name));
        } catch (Exception e) {
            throw new DponeException(BlockerCode.INTERNAL_ERROR, "serve.jmx", "cannot register the " + type
                + " MBean '" + name + "': " + Redactor.global().describe(e));
        }
    }
}
