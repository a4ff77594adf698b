package io.dpone.route;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseEndpoints;
import io.dpone.connect.ConnectionSpec;
import io.dpone.source.JdbcSourceReader;
import io.dpone.source.SourceReader;
import io.dpone.storage.StagingStore;

/**
 * How a run opens what it talks to, from resolved connection specs: the ClickHouse endpoint, the source reader and
 * the object-storage staging. {@link #REAL} opens the real ones; the route's processor-level tests bind in-memory
 * fakes instead (bean {@value #BEAN}, which {@link RouteBeans} binds and an embedding application may override).
 */
public interface RunConnectors {
    /** The registry name the runner looks the connectors up under. */
    String BEAN = "dponeRunConnectors";

    ClickHouseEndpoint clickhouse(ConnectionSpec spec);

    SourceReader source(ConnectionSpec spec);

    StagingStore stagingStore(ConnectionSpec spec, String bucket);

    /**
     * The staging store of a run whose object puts and gets retry under {@code budget}; the default opens
     * {@link #stagingStore(ConnectionSpec, String)} as it is (a fake fails as it is told to).
     */
    default StagingStore stagingStore(ConnectionSpec spec, String bucket, io.dpone.retry.RetryBudget budget) {
        return stagingStore(spec, bucket);
    }

    /** How runs in {@code camel} open their endpoint, source and object staging (bean {@value #BEAN}). */
    static RunConnectors of(org.apache.camel.CamelContext camel) {
        RunConnectors c = camel.getRegistry().lookupByNameAndType(BEAN, RunConnectors.class);
        return c != null ? c : REAL;
    }

    /** The production connectors: client-v2 or the embedded engine, JDBC, S3 (or the embedded S3Proxy). */
    RunConnectors REAL = new RunConnectors() {
        @Override
        public ClickHouseEndpoint clickhouse(ConnectionSpec spec) {
            return ClickHouseEndpoints.open(spec);
        }

        @Override
        public SourceReader source(ConnectionSpec spec) {
            return JdbcSourceReader.open(spec);
        }

        @Override
        public StagingStore stagingStore(ConnectionSpec spec, String bucket) {
            return StagingStore.open(spec, bucket);
        }

        @Override
        public StagingStore stagingStore(ConnectionSpec spec, String bucket, io.dpone.retry.RetryBudget budget) {
            return StagingStore.open(spec, bucket, budget);
        }
    };
}
