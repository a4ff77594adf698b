package io.dpone.route;

import io.dpone.camel.DponeCamel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.TableAdmin;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.error.BlockerCode;
import io.dpone.manifest.ManifestLoader;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import io.dpone.testing.mssql.MssqlTwinProcess;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A connection dropped in the middle of a result, through the real mssql-jdbc against the twin (its fault
 * {@code sp_twin_fault @drop_after_rows}): by default the run re-reads the rest of the key range on a fresh
 * connection (issue 35) and passes with every row once and the retry counted; with retries off
 * ({@code retry.max_retries: 0}) it is {@code source.read_failed}, no endpoint in it, nothing published, and the
 * same run id resumes to a green run. (A wrong password is in {@link MssqlSourceContract}.) A twin run, not a server
 * run (docs/testing.md).
 */
@io.dpone.testing.ProcessTest
class MssqlTwinFailureTest {
    static MssqlTwinProcess twin;
    static Path passwordFile;

    @TempDir
    static Path home;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws Exception {
        twin = MssqlTwinProcess.start(home.resolve("twin"));
        passwordFile = twin.passwordFile();
        try (Connection c = twin.connect()) {
            DemoSalesGenerator.seed(c, 20_000, 11);
        }
    }

    @AfterAll
    static void stop() {
        if (twin != null) {
            twin.close();
        }
    }

    static ConnectionContext context(Path password) {
        return ConnectionContext.of(Map.of(
            TestEngines.SOURCE, new ContextEntry(TestEngines.SOURCE, ConnectionType.MSSQL, twin.url(),
                MssqlTwinProcess.USER, null, password.toString(), false, Map.of()),
            TestEngines.CLICKHOUSE, new ContextEntry(TestEngines.CLICKHOUSE, ConnectionType.CLICKHOUSE, null, null,
                null, null, true, Map.of("path", TestEngines.clickHousePath().toString()))), false);
    }

    @Test
    void aConnectionDroppedMidResultIsReReadFromTheLastKeyWithEveryRowOnce() throws Exception {
        String db = TestEngines.newDatabase("twin_reread");
        Path manifest = Manifests.fullRefresh(dir, "sales", db, "route: typed_binary_streaming");
        java.nio.file.Files.writeString(manifest, java.nio.file.Files.readString(manifest)
            + "\nretry:\n  initial_backoff: 10ms\n  max_backoff: 100ms\n");
        try (Connection admin = twin.connect(); Statement st = admin.createStatement();
             DponeCamel camel = DponeCamel.start(null, false); ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            st.execute("EXEC sp_twin_fault @drop_after_rows = 7000");
            RunReport r = new FullRefreshRunner(camel, context(passwordFile), dir)
                .run(ManifestLoader.load(manifest), "reread-1", ProgressListener.NONE);
            assertTrue(r.passed(), String.valueOf(r.blockers()));
            assertEquals(1L, r.retries().byKind().get("source_read"), String.valueOf(r.retries()));
            assertEquals(List.of(List.of("20000", "20000")), ch.query("SELECT toString(count()), "
                + "toString(uniqExact(sale_id)) FROM " + ClickHouseSql.table(db, "sales")), "every row once");
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
    }

    @Test
    void aConnectionDroppedMidResultIsReadFailedPublishesNothingAndTheRunResumes() throws Exception {
        String db = TestEngines.newDatabase("twin_drop");
        Path manifest = Manifests.fullRefresh(dir, "sales", db, "route: typed_binary_streaming");
        java.nio.file.Files.writeString(manifest, java.nio.file.Files.readString(manifest)
            + "\nretry:\n  max_retries: 0\n");
        try (Connection admin = twin.connect(); Statement st = admin.createStatement();
             DponeCamel camel = DponeCamel.start(null, false); ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            st.execute("EXEC sp_twin_fault @drop_after_rows = 7000");
            RunReport failed = new FullRefreshRunner(camel, context(passwordFile), dir)
                .run(ManifestLoader.load(manifest), "drop-1", ProgressListener.NONE);
            assertFalse(failed.passed());
            assertEquals(BlockerCode.SOURCE_READ_FAILED.code(), failed.blockers().get(0).code(),
                String.valueOf(failed.blockers()));
            assertFalse(failed.blockers().toString().contains(String.valueOf(twin.port())));
            assertFalse(new TableAdmin(ch).exists(db, "sales"), "nothing published");

            RunReport resumed = new FullRefreshRunner(camel, context(passwordFile), dir)
                .run(ManifestLoader.load(manifest), "drop-1", ProgressListener.NONE);
            assertTrue(resumed.passed(), String.valueOf(resumed.blockers()));
            assertEquals(List.of(List.of("20000")), ch.query("SELECT toString(count()) FROM "
                + ClickHouseSql.table(db, "sales")));
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
    }
}
