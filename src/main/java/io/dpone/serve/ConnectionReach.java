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

/**
 * The cheapest round trip to one connection alias: SQL Server opens a session (login included), ClickHouse answers
 * {@code SELECT 1}, object storage lists under {@code dpone-readiness/} in the alias's bucket. Shared by the pod's
 * connection health checks and {@code dpone check --connect}; the caller bounds the wait (a silent server can hold a
 * driver call past any timeout the driver honours). What comes back is redacted: the alias and its type, never an
 * endpoint or a credential.
 */
public final class ConnectionReach {
    private ConnectionReach() {
    }

    /**
     * Reaches {@code alias} of {@code context}; returns null when it answered, else why not (redacted). {@code why}
     * names the purpose in a credential error ({@code readiness}, a manifest path).
     */
    public static String reach(ConnectionContext context, String alias, String why) {
        ContextEntry entry = context.entry(alias).orElse(null);
        if (entry == null) {
            return "connection alias '" + alias + "' is not in the runtime connection context";
        }
        try {
            ConnectionSpec spec = context.resolve(alias, entry.type(), why);
            if (entry.type() == ConnectionType.MSSQL) {
                JdbcSourceReader.open(spec).close();
            } else if (entry.type() == ConnectionType.CLICKHOUSE) {
                try (ClickHouseEndpoint ch = ClickHouseEndpoints.open(spec)) {
                    ch.operations().ping();
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
