package io.dpone.cdc.bundle;

import static io.dpone.cdc.mssql.H2CdcFixture.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.cdc.mssql.H2CdcFixture;
import io.dpone.cdc.mssql.H2ChangeTrackingFixture;
import io.dpone.connect.ConnectionContext;
import io.dpone.testing.CliRun;
import io.dpone.testing.TestEngines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dpone ops cdc-promotion-bundle} end to end through the CLI on the H2 CDC and Change Tracking emulations and
 * the embedded ClickHouse: a passing bundle, every blocker at once, the digest's stability and drift, approval.
 */
@io.dpone.testing.EngineTest
class CdcPromotionBundleTest {
    private static final String SECRET = "bundle-s3cret-Pw0rd";

    @TempDir
    Path dir;
    /** The stream's target dataset (a test that ticks uses a database of its own). */
    private String dataset = "analytics.orders_cdc";
    /** The stream's --credentials-source. */
    private String credentials = "file";

    @AfterEach
    void clear() {
        System.clearProperty(ConnectionContext.PROPERTY);
    }

    /** A context whose source alias logs in as a user with a password read from a file. */
    private void context(String h2Url) throws Exception {
        try (Connection c = DriverManager.getConnection(h2Url, "sa", ""); Statement st = c.createStatement()) {
            st.execute("CREATE USER IF NOT EXISTS bundler PASSWORD '" + SECRET + "' ADMIN");
        }
        Path password = Files.writeString(dir.resolve("source-password.txt"), SECRET);
        Path context = Files.writeString(dir.resolve("context.yaml"), """
            connections:
              mssql-prod:
                type: mssql
                url: "%s"
                user: bundler
                password_file: "%s"
              clickhouse-prod:
                type: clickhouse
                embedded: true
                options: {path: "%s"}
            """.formatted(h2Url, password, TestEngines.clickHousePath()));
        System.setProperty(ConnectionContext.PROPERTY, context.toString());
    }

    private CliRun bundle(Path out, String backend, String table, List<String> keys, String... extra) {
        List<String> args = new ArrayList<>(List.of("ops", "cdc-promotion-bundle",
            "--source", "mssql", "--sink", "clickhouse", "--backend", backend,
            "--pipeline-name", "orders-cdc", "--source-schema", "dbo", "--source-table", table,
            "--target-dataset", dataset,
            "--source-connection-id", "mssql-prod", "--sink-connection-id", "clickhouse-prod",
            "--credentials-source", credentials, "--output-dir", out.toString(), "--format", "json"));
        keys.forEach(k -> args.addAll(List.of("--unique-key", k)));
        args.addAll(List.of(extra));
        return CliRun.of(args.toArray(new String[0]));
    }

    private static JsonNode json(String text) throws Exception {
        return new ObjectMapper().readTree(text);
    }

    private static JsonNode file(Path out) throws Exception {
        return json(Files.readString(out.resolve(CdcPromotionBundle.JSON_FILE)));
    }

    private static Set<String> codes(JsonNode bundle) {
        Set<String> out = new TreeSet<>();
        bundle.path("blockers").forEach(b -> out.add(b.path("code").asText()));
        return out;
    }

    private void assertNothingLeaks(String h2Url, Path out, String... texts) throws Exception {
        List<String> all = new ArrayList<>(List.of(texts));
        try (var files = Files.list(out)) {
            for (Path f : files.toList()) {
                all.add(Files.readString(f));
                assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)), f.toString());
            }
        }
        String db = h2Url.substring(0, h2Url.indexOf(';'));
        for (String text : all) {
            for (String leak : List.of(SECRET, db, "jdbc:", TestEngines.clickHousePath().toString(),
                dir.toString())) {
                assertFalse(text.contains(leak), "output names '" + leak + "'");
            }
        }
    }

    @Test
    void passingCdcBundleHasEveryCheckGreenAndIsApproved() throws Exception {
        try (H2CdcFixture fx = new H2CdcFixture(TestEngines.newH2Url())) {
            fx.txn().insert(row(1, "new", "1.00", null, null)).commit();
            context(fx.url);
            Path out = dir.resolve("bundle");
            CliRun run = bundle(out, "mssql_cdc", "orders", List.of("order_id"));
            assertEquals(0, run.exitCode(), run.stderr());
            JsonNode b = file(out);
            assertEquals(json(run.stdout()), b, "stdout and the file carry the same bundle");
            assertEquals(CdcPromotionBundle.SCHEMA, b.path("schema").asText());
            assertTrue(b.path("passed").asBoolean());
            assertEquals(0, b.path("blockers").size());
            List<String> ids = new ArrayList<>();
            b.path("checks").forEach(c -> {
                ids.add(c.path("id").asText());
                // the emulation has no msdb.dbo.cdc_jobs: the cleanup job's retention is not checked, and says so
                assertEquals(c.path("id").asText().equals("cleanup_retention") ? "skipped" : "passed",
                    c.path("status").asText(), c.toString());
            });
            assertEquals(List.of("stream_options", "source_reachable", "source_table", "capture_enabled",
                "source_permissions", "unique_keys", "column_types", "cleanup_retention", "sink_reachable",
                "sink_privileges", "sink_log", "serving_target", "offset_store"), ids);
            assertEquals("dbo_orders", b.path("stream").path("capture_instance").asText());
            assertEquals("dbo_orders", b.path("source").path("capture_instance").asText());
            assertEquals(5, b.path("source").path("captured_columns").size());
            assertEquals("order_id", b.path("source").path("primary_key").get(0).asText());
            JsonNode amount = b.path("columns").get(2);
            assertEquals("amount", amount.path("name").asText());
            assertEquals("mapped", amount.path("verdict").asText());
            assertEquals("Nullable(Decimal(18, 2))", amount.path("clickhouse").get(0).path("type").asText());
            assertTrue(b.path("columns").get(0).path("key").asBoolean());
            assertTrue(b.path("digest").asText().matches("[0-9a-f]{64}"));
            String md = Files.readString(out.resolve(CdcPromotionBundle.MARKDOWN_FILE));
            assertTrue(md.contains(b.path("digest").asText()) && md.contains("| capture_enabled | passed |"), md);

            CliRun approve = bundle(out, "mssql_cdc", "orders", List.of("order_id"), "--approve", "--approver",
                "Jane Doe");
            assertEquals(0, approve.exitCode(), approve.stderr());
            JsonNode approval = json(Files.readString(out.resolve(CdcPromotionBundle.APPROVAL_FILE)));
            assertEquals(BundleFiles.APPROVAL_SCHEMA, approval.path("schema").asText());
            assertEquals("Jane Doe", approval.path("approver").asText());
            assertEquals(b.path("digest").asText(), approval.path("digest").asText());
            assertTrue(approval.path("approved_at").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"));
            assertNothingLeaks(fx.url, out, run.stdout(), run.stderr(), approve.stdout(), approve.stderr());
        }
    }

    @Test
    void uniqueIndexKeysACdcStream() throws Exception {
        try (H2CdcFixture fx = new H2CdcFixture(TestEngines.newH2Url())) {
            fx.connection.createStatement().execute("CREATE UNIQUE INDEX ux_orders_status ON dbo.orders (status)");
            context(fx.url);
            CliRun run = bundle(dir.resolve("b"), "mssql_cdc", "orders", List.of("status"));
            assertEquals(0, run.exitCode(), run.stderr() + run.stdout());
            CliRun plain = bundle(dir.resolve("c"), "mssql_cdc", "orders", List.of("note"));
            assertEquals(1, plain.exitCode());
            assertEquals(Set.of("cdc_bundle.unique_key_mismatch"), codes(file(dir.resolve("c"))));
        }
    }

    @Test
    void everyBlockerShowsAtOnce() throws Exception {
        String url = TestEngines.newH2Url();
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA IF NOT EXISTS dbo");
            st.execute("CREATE TABLE dbo.plain (id INT NOT NULL, note NVARCHAR(40), tags INTEGER ARRAY, "
                + "PRIMARY KEY (id))");
            context(url);
            Path out = dir.resolve("red");
            CliRun run = bundle(out, "mssql_cdc", "plain", List.of("note"));
            assertEquals(1, run.exitCode(), run.stdout());
            JsonNode b = file(out);
            assertEquals(json(run.stderr()), b);
            assertFalse(b.path("passed").asBoolean());
            assertEquals(Set.of("cdc_runtime.source_not_enabled", "cdc_bundle.unique_key_mismatch",
                "source.type_unsupported"), codes(b));
            b.path("blockers").forEach(x -> {
                if (x.path("code").asText().equals("source.type_unsupported")) {
                    assertEquals("dbo.plain.tags", x.path("subject").asText());
                }
            });
            JsonNode tags = b.path("columns").get(2);
            assertEquals("refused", tags.path("verdict").asText());
            assertEquals("source.type_unsupported", tags.path("blocker_code").asText());
            assertTrue(Files.readString(out.resolve(CdcPromotionBundle.MARKDOWN_FILE))
                .contains("cdc_bundle.unique_key_mismatch"));

            CliRun approve = bundle(out, "mssql_cdc", "plain", List.of("note"), "--approve", "--approver", "jane");
            assertEquals(1, approve.exitCode());
            assertEquals(Set.of("cdc_bundle.not_approvable"), codes(json(approve.stderr())));
            assertFalse(Files.exists(out.resolve(CdcPromotionBundle.APPROVAL_FILE)));
            assertNothingLeaks(url, out, run.stdout(), run.stderr(), approve.stdout(), approve.stderr());
        }
    }

    @Test
    void digestIsStableAndMovesWithTheCapturedColumns() throws Exception {
        try (H2CdcFixture fx = new H2CdcFixture(TestEngines.newH2Url())) {
            context(fx.url);
            CliRun first = bundle(dir.resolve("one"), "mssql_cdc", "orders", List.of("order_id"));
            CliRun second = bundle(dir.resolve("two"), "mssql_cdc", "orders", List.of("order_id"));
            assertEquals(0, first.exitCode(), first.stderr());
            String digest = file(dir.resolve("one")).path("digest").asText();
            assertEquals(digest, file(dir.resolve("two")).path("digest").asText());
            CliRun otherConfig = bundle(dir.resolve("three"), "mssql_cdc", "orders", List.of("order_id"),
                "--max-events", "500");
            assertNotEquals(digest, file(dir.resolve("three")).path("digest").asText());
            assertEquals(0, otherConfig.exitCode());

            // a column added to the table and to its capture instance
            try (Statement st = fx.connection.createStatement()) {
                st.execute("ALTER TABLE dbo.orders ADD channel NVARCHAR(20)");
                st.execute("ALTER TABLE cdc.[dbo_orders_CT] ADD channel NVARCHAR(20)");
            }
            CliRun approve = bundle(dir.resolve("one"), "mssql_cdc", "orders", List.of("order_id"), "--approve",
                "--approver", "jane");
            assertEquals(1, approve.exitCode());
            JsonNode refused = json(approve.stderr());
            assertEquals(Set.of("cdc_bundle.digest_drift"), codes(refused));
            assertEquals(digest, refused.path("blockers").get(0).path("details").path("recorded_digest").asText());
            assertFalse(Files.exists(dir.resolve("one").resolve(CdcPromotionBundle.APPROVAL_FILE)));
            CliRun after = bundle(dir.resolve("four"), "mssql_cdc", "orders", List.of("order_id"));
            assertEquals(0, after.exitCode(), after.stderr());
            String moved = file(dir.resolve("four")).path("digest").asText();
            assertNotEquals(digest, moved);
            assertEquals(moved, refused.path("blockers").get(0).path("details").path("current_digest").asText());
        }
    }

    @Test
    void changeTrackingBundle() throws Exception {
        try (H2ChangeTrackingFixture fx = new H2ChangeTrackingFixture(TestEngines.newH2Url())) {
            context(fx.url);
            CliRun run = bundle(dir.resolve("ct"), "mssql_change_tracking", "orders", List.of("order_id"));
            assertEquals(0, run.exitCode(), run.stderr());
            JsonNode b = file(dir.resolve("ct"));
            assertTrue(b.path("source").path("capture_instance").isNull());
            assertEquals(5, b.path("columns").size());
            // Change Tracking keys rows by the primary key only
            CliRun other = bundle(dir.resolve("ct2"), "mssql_change_tracking", "orders", List.of("status"));
            assertEquals(1, other.exitCode());
            assertEquals(Set.of("cdc_bundle.unique_key_mismatch"), codes(file(dir.resolve("ct2"))));
            // Change Tracking off for the table
            fx.connection.createStatement().execute("DELETE FROM dbo.ct_state");
            CliRun off = bundle(dir.resolve("ct3"), "mssql_change_tracking", "orders", List.of("order_id"));
            assertEquals(1, off.exitCode());
            assertEquals(Set.of("cdc_runtime.source_not_enabled"), codes(file(dir.resolve("ct3"))));
        }
    }

    @Test
    void theServingTargetOfTheCommandLineIsChecked() throws Exception {
        try (H2CdcFixture fx = new H2CdcFixture(TestEngines.newH2Url()); var ch = TestEngines.clickhouse()) {
            String db = TestEngines.newAtomicDatabase(ch, "bundle_cli_serving");
            dataset = db + ".orders_cdc";
            context(fx.url);
            ch.execute("CREATE TABLE " + io.dpone.clickhouse.ClickHouseSql.table(db, "orders") + " (id Int32) "
                + "ENGINE = MergeTree ORDER BY id");
            CliRun taken = bundle(dir.resolve("taken"), "mssql_cdc", "orders", List.of("order_id"),
                "--materialize-target", db + ".orders", "--materialize-mode", "incremental");
            assertEquals(1, taken.exitCode(), taken.stdout());
            JsonNode b = file(dir.resolve("taken"));
            assertEquals(Set.of("cdc_bundle.serving_target_not_owned"), codes(b));
            assertEquals("--materialize-target", b.path("blockers").get(0).path("subject").asText());
            CliRun free = bundle(dir.resolve("free"), "mssql_cdc", "orders", List.of("order_id"),
                "--materialize-target", db + ".orders_served", "--materialize-mode", "incremental");
            assertEquals(0, free.exitCode(), free.stderr());
            assertEquals(b.path("digest"), file(dir.resolve("free")).path("digest"));
            CliRun twoTargets = bundle(dir.resolve("two"), "mssql_cdc", "orders", List.of("order_id"),
                "--materialize-target", db + ".a", "--materialize-target", db + ".b");
            assertEquals(2, twoTargets.exitCode(), twoTargets.stderr());
            ch.execute("DROP DATABASE IF EXISTS " + io.dpone.clickhouse.ClickHouseSql.id(db));
        }
    }

    @Test
    void unreachableSinkAndApproveWithoutBundleAreTyped() throws Exception {
        try (H2CdcFixture fx = new H2CdcFixture(TestEngines.newH2Url())) {
            context(fx.url);
            Path out = dir.resolve("none");
            CliRun approve = bundle(out, "mssql_cdc", "orders", List.of("order_id"), "--approve", "--approver",
                "jane");
            assertEquals(1, approve.exitCode());
            assertEquals(Set.of("cdc_bundle.bundle_unreadable"), codes(json(approve.stderr())));
            CliRun noApprover = bundle(out, "mssql_cdc", "orders", List.of("order_id"), "--approve");
            assertEquals(2, noApprover.exitCode(), noApprover.stderr());
            CliRun wrongAlias = CliRun.of("ops", "cdc-promotion-bundle", "--source", "mssql", "--sink", "clickhouse",
                "--backend", "mssql_cdc", "--pipeline-name", "orders-cdc", "--source-schema", "dbo",
                "--source-table", "orders", "--target-dataset", "analytics.orders_cdc", "--unique-key", "order_id",
                "--source-connection-id", "mssql-prod", "--sink-connection-id", "mssql-prod",
                "--output-dir", out.toString(), "--format", "json");
            assertEquals(1, wrongAlias.exitCode());
            assertEquals(Set.of("connection.type_mismatch"), codes(file(out)));
            // the source alias takes its password from a file: --credentials-source env is refused, as by the tick
            credentials = "env";
            CliRun wrongSource = bundle(out, "mssql_cdc", "orders", List.of("order_id"));
            assertEquals(1, wrongSource.exitCode());
            JsonNode refused = file(out);
            assertEquals(Set.of("cdc_runtime.invalid_argument"), codes(refused));
            assertEquals("--source-connection-id", refused.path("blockers").get(0).path("subject").asText());
            assertEquals("failed", refused.path("checks").get(0).path("status").asText());
            assertEquals("skipped", refused.path("checks").get(1).path("status").asText());
        }
    }

    private CliRun tick(String... extra) {
        List<String> args = new ArrayList<>(List.of("ops", "cdc-runtime-run", "--mode", "live",
            "--source", "mssql", "--sink", "clickhouse", "--backend", "mssql_cdc",
            "--pipeline-name", "orders-cdc", "--source-schema", "dbo", "--source-table", "orders",
            "--target-dataset", dataset, "--unique-key", "order_id",
            "--source-connection-id", "mssql-prod", "--sink-connection-id", "clickhouse-prod",
            "--credentials-source", "file", "--format", "json"));
        args.addAll(List.of(extra));
        return CliRun.of(args.toArray(new String[0]));
    }

    @Test
    void aTickRequiringTheApprovedBundleRefusesDrift() throws Exception {
        String db = TestEngines.newDatabase("bundle_tick");
        dataset = db + ".orders_cdc";
        try (H2CdcFixture fx = new H2CdcFixture(TestEngines.newH2Url());
             var ch = TestEngines.clickhouse()) {
            fx.txn().insert(row(1, "new", "1.00", null, null)).insert(row(2, "new", "2.00", null, null)).commit();
            context(fx.url);
            Path out = dir.resolve("approved");
            assertEquals(0, bundle(out, "mssql_cdc", "orders", List.of("order_id")).exitCode());

            CliRun unapproved = tick("--require-approved-bundle", out.toString());
            assertEquals(1, unapproved.exitCode(), unapproved.stdout());
            assertEquals(Set.of("cdc_bundle.not_approved"), codes(json(unapproved.stderr())));

            CliRun approve = bundle(out, "mssql_cdc", "orders", List.of("order_id"), "--approve", "--approver",
                "jane");
            assertEquals(0, approve.exitCode(), approve.stderr());
            CliRun green = tick("--require-approved-bundle", out.toString());
            assertEquals(0, green.exitCode(), green.stderr());
            assertEquals(2, json(green.stdout()).path("counts").path("applied").asLong());

            // the configuration drifted: another batch bound than the approved one
            CliRun otherBound = tick("--require-approved-bundle", out.toString(), "--max-events", "10");
            assertEquals(1, otherBound.exitCode());
            assertEquals(Set.of("cdc_bundle.digest_drift"), codes(json(otherBound.stderr())));

            // a change to read, then the source drifts: a column added to the table and its capture instance
            fx.txn().insert(row(3, "new", "3.00", null, null)).commit();
            try (Statement st = fx.connection.createStatement()) {
                st.execute("ALTER TABLE dbo.orders ADD channel NVARCHAR(20)");
                st.execute("ALTER TABLE cdc.[dbo_orders_CT] ADD channel NVARCHAR(20)");
            }
            CliRun drifted = tick("--require-approved-bundle", out.toString());
            assertEquals(1, drifted.exitCode(), drifted.stdout());
            JsonNode refused = json(drifted.stderr());
            assertEquals(Set.of("cdc_bundle.digest_drift"), codes(refused));
            assertFalse(refused.path("committed").asBoolean());
            assertEquals("2", ch.query("SELECT count() FROM " + io.dpone.clickhouse.ClickHouseSql.table(db,
                "orders_cdc")).get(0).get(0), "nothing was read or applied after the drift");
            assertNothingLeaks(fx.url, out, unapproved.stderr(), green.stdout(), drifted.stderr());
            ch.execute("DROP DATABASE IF EXISTS " + io.dpone.clickhouse.ClickHouseSql.id(db));
        }
    }
}
