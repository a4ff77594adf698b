package io.dpone.serve;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseEndpoints;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.connect.Redactor;
import io.dpone.source.JdbcSourceReader;
import io.dpone.storage.StagingStore;
import java.util.Map;
import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;

/**
 * The state of one configured connection alias (source, ClickHouse or object storage): connects, runs the cheapest
 * round trip ({@code SELECT 1}, a list under {@code dpone-readiness/}) and closes. Results are cached for a few
 * seconds so probes and scrapes do not hammer the servers. Details carry the alias and type, never an endpoint or
 * credential. Neither a liveness nor a readiness check: a database that is down does not take the pod out of its
 * Service (its metrics and JMX would vanish when they matter most); it shows in {@code /observe/health} and as the
 * gauge {@code dpone_connection_up{alias}}, and the job that needs it fails with its own typed blocker.
 */
public final class ConnectionHealthCheck extends AbstractHealthCheck {
    private static final long CACHE_MILLIS = 5_000;

    private final ConnectionContext context;
    private final String alias;
    private long checkedAt;
    private String failure;

    public ConnectionHealthCheck(ConnectionContext context, String alias) {
        super("dpone", "connection:" + alias);
        this.context = context;
        this.alias = alias;
    }

    @Override
    public boolean isLiveness() {
        return false;
    }

    @Override
    public boolean isReadiness() {
        return false;
    }

    public String alias() {
        return alias;
    }

    /** Whether the alias answered its round trip (probed at most every few seconds). */
    public boolean up() {
        return probe() == null;
    }

    @Override
    protected void doCall(HealthCheckResultBuilder builder, Map<String, Object> options) {
        builder.detail("alias", alias);
        String problem = probe();
        context.entry(alias).ifPresent(e -> builder.detail("type", e.type().wireName()));
        if (problem == null) {
            builder.up();
        } else {
            builder.message(problem).down();
        }
    }

    private synchronized String probe() {
        long now = System.currentTimeMillis();
        if (checkedAt != 0 && now - checkedAt < CACHE_MILLIS) {
            return failure;
        }
        failure = reach();
        checkedAt = now;
        return failure;
    }

    private String reach() {
        ContextEntry entry = context.entry(alias).orElse(null);
        if (entry == null) {
            return "connection alias '" + alias + "' is not in the runtime connection context";
        }
        try {
            ConnectionSpec spec = context.resolve(alias, entry.type(), "readiness");
            if (entry.type() == ConnectionType.MSSQL) {
                JdbcSourceReader.open(spec).close();
            } else if (entry.type() == ConnectionType.CLICKHOUSE) {
                try (ClickHouseEndpoint ch = ClickHouseEndpoints.open(spec)) {
                    ch.query("SELECT 1");
                }
            } else {
                try (StagingStore s = StagingStore.open(spec, spec.option("bucket", "dpone-staging"))) {
                    s.store().list("dpone-readiness/");
                }
            }
            return null;
        } catch (RuntimeException e) {
            return Redactor.global().describe(e);
        }
    }
}
