package io.dpone.serve;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseEndpoints;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.connect.Redactor;
import io.dpone.error.DponeException;
import java.util.Collection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the embedded ClickHouse open for the whole life of {@code dpone serve}. The engine closes when its last user
 * closes it, and its (re)connect replaces the JVM's crash-signal handlers until they are restored: a safepoint
 * requested in that window while any Java thread runs kills the process. Opened before Camel, the HTTP server and
 * the jobs start, every later open (jobs, readiness probes) joins the live connection instead of reconnecting.
 */
final class EmbeddedEngineHold implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedEngineHold.class);
    private final ClickHouseEndpoint endpoint;

    private EmbeddedEngineHold(ClickHouseEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    /** Opens the first embedded ClickHouse alias among {@code aliases}; a hold of nothing when there is none. */
    static EmbeddedEngineHold open(ConnectionContext context, Collection<String> aliases) {
        for (String alias : aliases) {
            ContextEntry entry = context.entry(alias).orElse(null);
            if (entry == null || entry.type() != ConnectionType.CLICKHOUSE) {
                continue;
            }
            try {
                ConnectionSpec spec = context.resolve(alias, ConnectionType.CLICKHOUSE, "serve");
                if (spec.embedded()) {
                    return new EmbeddedEngineHold(ClickHouseEndpoints.open(spec));
                }
            } catch (DponeException e) {
                // the jobs and the readiness check report it with their own codes; serve still starts
                LOG.warn("embedded ClickHouse not held open for alias {}: {}", alias, Redactor.global().describe(e));
                return new EmbeddedEngineHold(null);
            }
        }
        return new EmbeddedEngineHold(null);
    }

    @Override
    public void close() {
        if (endpoint != null) {
            endpoint.close();
        }
    }
}
