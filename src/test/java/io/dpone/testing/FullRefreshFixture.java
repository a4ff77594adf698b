package io.dpone.testing;

import io.dpone.camel.DponeCamel;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.connect.ConnectionContext;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.manifest.BatchManifest;
import io.dpone.route.FullRefreshRunner;
import io.dpone.route.LoadChunkProcessor;
import io.dpone.route.ProgressListener;
import io.dpone.route.RunReport;
import io.dpone.route.StagingNames;
import io.dpone.route.TransferRun;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.camel.Processor;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The source and sink of a full-refresh route test, fresh for every test method: a new H2 database in SQL Server mode
 * (an open connection to it, seeded by the test's {@link Seed}), a database of its own on the shared embedded
 * ClickHouse (dropped after the test), and the connection context naming both; runs of the full-refresh route with
 * processors replaced by name; the staging table of a run; chunk loads that crash or stop. A class using it is an
 * {@link EngineTest}:
 *
 * <pre>{@code @RegisterExtension final FullRefreshFixture fx = new FullRefreshFixture("prefix", src -> ...);}</pre>
 */
public final class FullRefreshFixture implements BeforeEachCallback, AfterEachCallback {
    /** Fills the fresh H2 source. */
    @FunctionalInterface
    public interface Seed {
        void seed(Connection source) throws Exception;
    }

    private final String databasePrefix;
    private final Seed seed;
    private String h2;
    private String db;
    private Connection source;
    private ClickHouseEndpoint clickhouse;
    private ConnectionContext context;

    public FullRefreshFixture(String databasePrefix, Seed seed) {
        this.databasePrefix = databasePrefix;
        this.seed = seed;
    }

    @Override
    public void beforeEach(ExtensionContext extension) throws Exception {
        h2 = TestEngines.newH2Url();
        db = TestEngines.newDatabase(databasePrefix);
        source = DriverManager.getConnection(h2, "sa", "");
        clickhouse = TestEngines.clickhouse();
        context = TestEngines.context(h2);
        seed.seed(source);
    }

    @Override
    public void afterEach(ExtensionContext extension) throws Exception {
        try (Connection s = source; ClickHouseEndpoint ch = clickhouse) {
            if (ch != null) {
                ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
            }
        } finally {
            source = null;
            clickhouse = null;
        }
    }

    /** The H2 source's JDBC URL. */
    public String h2() {
        return h2;
    }

    /** The test's ClickHouse database (target and staging). */
    public String db() {
        return db;
    }

    /** An open connection to the H2 source. */
    public Connection source() {
        return source;
    }

    /** The shared embedded engine. */
    public ClickHouseEndpoint clickhouse() {
        return clickhouse;
    }

    /** The context with {@link TestEngines#SOURCE} on the H2 source and {@link TestEngines#CLICKHOUSE} embedded. */
    public ConnectionContext context() {
        return context;
    }

    /** One run of the full-refresh route in a context of its own, with {@code overrides} bound by name. */
    public RunReport run(BatchManifest manifest, String runId, Path stateDir, Map<String, Object> overrides) {
        try (DponeCamel camel = DponeCamel.start(null, false, overrides)) {
            return new FullRefreshRunner(camel, context, stateDir).run(manifest, runId, ProgressListener.NONE);
        }
    }

    /** The staging table's name (unqualified) of run {@code runId} into {@code table}. */
    public static String stagingName(String table, String runId) {
        return StagingNames.staging(table, TransferRun.keyOf(runId));
    }

    /** The staging table of run {@code runId} into {@code table}, qualified with the test's database. */
    public String staging(String table, String runId) {
        return ClickHouseSql.table(db, stagingName(table, runId));
    }

    /** Whether the staging table of run {@code runId} into {@code table} exists. */
    public boolean stagingExists(String table, String runId) {
        return !clickhouse.query("SELECT 1 FROM system.tables WHERE database = " + ClickHouseSql.literal(db)
            + " AND name = " + ClickHouseSql.literal(stagingName(table, runId))).isEmpty();
    }

    /** The rows of the staging table of run {@code runId} into {@code table}. */
    public long stagedRows(String table, String runId) {
        return Long.parseLong(clickhouse.query("SELECT count() FROM " + staging(table, runId)).get(0).get(0));
    }

    /** The real chunk load, then a simulated crash after its n-th call. */
    public static Processor crashAfter(int nth) {
        AtomicInteger calls = new AtomicInteger();
        LoadChunkProcessor real = new LoadChunkProcessor();
        return exchange -> {
            real.process(exchange);
            if (calls.incrementAndGet() == nth) {
                throw new IllegalStateException("simulated crash");
            }
        };
    }

    /** What serve's stop-aware chunk step does once the process is stopping: refuse the n-th chunk. */
    public static Processor stopBefore(int nth) {
        AtomicInteger calls = new AtomicInteger();
        LoadChunkProcessor real = new LoadChunkProcessor();
        return exchange -> {
            if (calls.incrementAndGet() == nth) {
                throw new DponeException(BlockerCode.SERVE_SHUTDOWN_INTERRUPTED, "serve", "the process is stopping");
            }
            real.process(exchange);
        };
    }
}
