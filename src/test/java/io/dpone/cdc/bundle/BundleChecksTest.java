package io.dpone.cdc.bundle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.cdc.CdcHashes;
import io.dpone.cdc.bundle.CdcPromotionBundle.Check;
import io.dpone.cdc.mssql.H2CdcFixture;
import io.dpone.cdc.mssql.H2ChangeTrackingFixture;
import io.dpone.cdc.mssql.H2MultiTableCdcFixture;
import io.dpone.cdc.runtime.CdcMode;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.error.Blocker;
import io.dpone.testing.TestEngines;
import java.nio.file.Path;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundle's permission, retention, privilege and serving-target checks (issue 31, item 1) on the embedded default
 * (the H2 emulations and the embedded ClickHouse): each passes there, and each fails with its typed blocker on a
 * constructed bad case: a source user without SELECT on the change table or outside the gating role, a Change
 * Tracking retention shorter than twice the tick interval, a sink that answers CHECK GRANT with 0, a serving target
 * that is someone else's table. The digest pins what it pinned before: none of these checks moves it.
 */
@io.dpone.testing.EngineTest
class BundleChecksTest {
    private static final String PASSWORD = "bundle-Check5-pw";
    static ClickHouseEndpoint ch;

    @BeforeAll
    static void open() {
        ch = TestEngines.clickhouse();
    }

    @AfterAll
    static void close() {
        ch.close();
    }

    @TempDir
    Path dir;

    /** The test aliases, the source logging in as {@code user} (sa: no password; else {@link #PASSWORD}). */
    private ConnectionContext context(String h2Url, String user) throws java.io.IOException {
        String passwordFile = null;
        String url = h2Url;
        if (!user.equals("sa")) {
            passwordFile = java.nio.file.Files.writeString(dir.resolve(user + ".password"), PASSWORD).toString();
            // H2 lets only an admin name the database's settings in the URL: the database keeps the ones it was
            // created with, the session takes the SQL Server mode
            url = h2Url.substring(0, h2Url.indexOf(';')) + ";MODE=MSSQLServer";
        }
        return ConnectionContext.of(Map.of(
            TestEngines.SOURCE, new ContextEntry(TestEngines.SOURCE, ConnectionType.MSSQL, url, user, null,
                passwordFile, false, Map.of()),
            TestEngines.CLICKHOUSE, new ContextEntry(TestEngines.CLICKHOUSE, ConnectionType.CLICKHOUSE, null, null,
                null, null, true, Map.of("path", TestEngines.clickHousePath().toString()))), false);
    }

    private static CdcRunOptions orders(String backend, String dataset) {
        return CdcRunOptions.builder(CdcMode.live).systems("mssql", "clickhouse").backend(backend)
            .pipelineName("orders-cdc").sourceTable("dbo", "orders").targetDataset(dataset)
            .uniqueKeys(List.of("order_id")).connections(TestEngines.SOURCE, TestEngines.CLICKHOUSE).build();
    }

    private static CdcPromotionBundle build(CdcRunOptions o, ConnectionContext context, Duration tick,
                                            ServingPlan serving) {
        return PromotionChecks.build(o, context, alias -> null, tick, serving);
    }

    private static Check check(List<Check> checks, String id) {
        return checks.stream().filter(c -> c.id().equals(id)).findFirst().orElseThrow(() -> new AssertionError(id
            + " not in " + checks));
    }

    private static Set<String> codes(CdcPromotionBundle b) {
        return b.blockers().stream().map(Blocker::code).collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void theNewChecksPassOnTheEmbeddedDefaultAndLeaveTheDigestAsItWas() throws Exception {
        String db = TestEngines.newDatabase("bundle_checks");
        try (H2CdcFixture fx = new H2CdcFixture(TestEngines.newH2Url())) {
            ConnectionContext context = context(fx.url, "sa");
            CdcPromotionBundle plain = build(orders("mssql_cdc", db + ".orders_cdc"), context, null, null);
            assertTrue(plain.passed(), String.valueOf(plain.blockers()));
            assertEquals("passed", check(plain.checks(), "source_permissions").status().name());
            assertTrue(check(plain.checks(), "source_permissions").detail().contains("SELECT on cdc.[dbo_orders_CT]"),
                check(plain.checks(), "source_permissions").detail());
            Check privileges = check(plain.checks(), "sink_privileges");
            assertEquals("passed", privileges.status().name(), privileges.detail());
            assertTrue(privileges.detail().contains(db + ".*"), privileges.detail());
            assertEquals("passed", check(plain.checks(), "serving_target").status().name());

            // the digest is SHA-256 over exactly what it pinned before these checks: the stream configuration and
            // the source facts, with the same fields; a tick interval or a serving target does not move it
            assertEquals(List.of("mode", "source", "sink", "backend", "pipeline_name", "source_schema",
                "source_table", "target_dataset", "unique_keys", "source_connection_id", "sink_connection_id",
                "credentials_source", "capture_instance", "max_events", "value_policy"),
                List.copyOf(plain.stream().keySet()));
            assertEquals(List.of("backend", "capture_instance", "primary_key", "unique_keys", "captured_columns"),
                List.copyOf(plain.source().keySet()));
            Map<String, Object> pinned = new LinkedHashMap<>();
            pinned.put("stream", plain.stream());
            pinned.put("source", plain.source());
            assertEquals(CdcHashes.sha256Hex(CdcHashes.canonicalJson(pinned)), plain.digest());
            CdcPromotionBundle served = build(orders("mssql_cdc", db + ".orders_cdc"), context, Duration.ofMinutes(5),
                new ServingPlan("incremental", "tombstone", db + ".orders", null, null));
            assertTrue(served.passed(), String.valueOf(served.blockers()));
            assertEquals(plain.digest(), served.digest());
            assertTrue(check(served.checks(), "serving_target").detail().contains("does not exist yet"),
                check(served.checks(), "serving_target").detail());
        }
    }

    @Test
    void aSourceUserWithoutSelectOnTheChangeTableOrOutsideTheGatingRoleIsRefusedTyped() throws Exception {
        String db = TestEngines.newDatabase("bundle_perms");
        try (H2CdcFixture fx = new H2CdcFixture(TestEngines.newH2Url()); Statement st = fx.connection
            .createStatement()) {
            st.execute("CREATE USER reader PASSWORD '" + PASSWORD + "'");
            for (String t : List.of("dbo.orders", "cdc.change_tables", "cdc.lsn_time_mapping")) {
                st.execute("GRANT SELECT ON " + t + " TO reader");
            }
            ConnectionContext context = context(fx.url, "reader");
            CdcPromotionBundle denied = build(orders("mssql_cdc", db + ".orders_cdc"), context, null, null);
            assertFalse(denied.passed());
            assertTrue(codes(denied).contains("cdc_bundle.source_permission_missing"), String.valueOf(denied.blockers()));
            Blocker b = denied.blockers().stream().filter(x -> x.code().equals("cdc_bundle.source_permission_missing"))
                .findFirst().orElseThrow();
            assertEquals("source.cdc.dbo_orders", b.subject());
            assertEquals(List.of("SELECT on cdc.[dbo_orders_CT]"), b.details().get("missing"));
            assertEquals("failed", check(denied.checks(), "source_permissions").status().name());

            st.execute("GRANT SELECT ON cdc.[dbo_orders_CT] TO reader");
            CdcPromotionBundle granted = build(orders("mssql_cdc", db + ".orders_cdc"), context, null, null);
            assertTrue(granted.passed(), String.valueOf(granted.blockers()));
            // the fixture's capture instance has role_name NULL: no gating role, and said so
            assertTrue(check(granted.checks(), "source_permissions").detail().contains("no gating role"),
                check(granted.checks(), "source_permissions").detail());

            // a stream that may create capture instances needs db_owner (an admin in the emulation), and the flag is
            // pinned in its digest; without the flag the stream section and digest are as before
            CdcRunOptions ddl = orders("mssql_cdc", db + ".orders_cdc").toBuilder().allowCaptureInstanceDdl(true)
                .build();
            CdcPromotionBundle notOwner = build(ddl, context, null, null);
            assertEquals(Set.of("cdc_bundle.source_permission_missing"), codes(notOwner));
            assertEquals(List.of("member of db_owner"), notOwner.blockers().get(0).details().get("missing"));
            assertEquals(true, notOwner.stream().get("allow_capture_instance_ddl"));
            assertFalse(granted.stream().containsKey("allow_capture_instance_ddl"));
            assertFalse(granted.digest().equals(notOwner.digest()), "the flag is part of what is approved");
            st.execute("ALTER USER reader ADMIN TRUE");
            CdcPromotionBundle owner = build(ddl, context, null, null);
            assertTrue(owner.passed(), String.valueOf(owner.blockers()));
            assertEquals(notOwner.digest(), owner.digest());
            st.execute("ALTER USER reader ADMIN FALSE");

            // a gating role: the user must be a member (SQL Server answers sys.fn_cdc_get_min_lsn 0x00 otherwise)
            st.execute("UPDATE cdc.change_tables SET role_name = 'cdc_readers'");
            st.execute("CREATE ROLE cdc_readers");
            CdcPromotionBundle outside = build(orders("mssql_cdc", db + ".orders_cdc"), context, null, null);
            assertEquals(Set.of("cdc_bundle.source_permission_missing"), codes(outside));
            assertEquals(List.of("member of cdc_readers"), outside.blockers().get(0).details().get("missing"));
            st.execute("GRANT cdc_readers TO reader");
            CdcPromotionBundle member = build(orders("mssql_cdc", db + ".orders_cdc"), context, null, null);
            assertTrue(member.passed(), String.valueOf(member.blockers()));
            assertTrue(check(member.checks(), "source_permissions").detail().contains("member of gating role "
                + "cdc_readers"), check(member.checks(), "source_permissions").detail());
            assertEquals(granted.digest(), member.digest(), "permissions are checked, not pinned");
        }
    }

    @Test
    void changeTrackingPermissionsAndRetentionAgainstTheTickInterval() throws Exception {
        String db = TestEngines.newDatabase("bundle_ct");
        try (H2ChangeTrackingFixture fx = new H2ChangeTrackingFixture(TestEngines.newH2Url())) {
            ConnectionContext context = context(fx.url, "sa");
            CdcRunOptions o = orders("mssql_change_tracking", db + ".orders_cdc");
            // SQL Server's default CHANGE_RETENTION, 2 days, against a 10-minute tick
            CdcPromotionBundle ok = build(o, context, Duration.ofMinutes(10), null);
            assertTrue(ok.passed(), String.valueOf(ok.blockers()));
            Check retention = check(ok.checks(), "cleanup_retention");
            assertEquals("passed", retention.status().name(), retention.detail());
            assertTrue(retention.detail().contains("2 day(s)"), retention.detail());
            assertEquals("SELECT and VIEW CHANGE TRACKING on [dbo].[orders]",
                check(ok.checks(), "source_permissions").detail());

            fx.retention(1, 2, true); // 1 hour
            CdcPromotionBundle tooShort = build(o, context, Duration.ofMinutes(45), null);
            assertEquals(Set.of("cdc_bundle.retention_too_short"), codes(tooShort));
            Blocker b = tooShort.blockers().get(0);
            assertEquals(60L, ((Number) b.details().get("retention_minutes")).longValue());
            assertEquals(2700L, ((Number) b.details().get("tick_interval_seconds")).longValue());
            assertTrue(b.message().contains("CHANGE_RETENTION"), b.message());
            assertEquals(ok.digest(), tooShort.digest(), "the retention is checked, not pinned");
            assertTrue(build(o, context, Duration.ofMinutes(30), null).passed(), "1 hour is twice 30 minutes");
            fx.retention(1, 2, false);
            Check off = check(build(o, context, Duration.ofMinutes(45), null).checks(), "cleanup_retention");
            assertEquals("passed", off.status().name());
            assertTrue(off.detail().contains("auto cleanup is off"), off.detail());

            // a user who may not read the table
            try (Statement st = fx.connection.createStatement()) {
                st.execute("CREATE USER tracker PASSWORD '" + PASSWORD + "'");
                st.execute("GRANT SELECT ON dbo.ct_state TO tracker");
            }
            CdcPromotionBundle denied = build(o, context(fx.url, "tracker"), null, null);
            // H2 lists the table to a user who may not read it: only the permissions check fails
            assertEquals(Set.of("cdc_bundle.source_permission_missing"), codes(denied));
            assertEquals("failed", check(denied.checks(), "source_permissions").status().name());
            assertEquals("passed", check(denied.checks(), "capture_enabled").status().name());
            assertEquals(List.of("SELECT", "VIEW CHANGE TRACKING"), denied.blockers().get(0).details().get("missing"));
            assertEquals("source.change_tracking.dbo.orders", denied.blockers().get(0).subject());
            try (Statement st = fx.connection.createStatement()) {
                st.execute("GRANT SELECT ON dbo.orders TO tracker");
            }
            CdcPromotionBundle granted = build(o, context(fx.url, "tracker"), null, null);
            assertTrue(granted.passed(), String.valueOf(granted.blockers()));
            assertEquals(denied.digest(), granted.digest(), "permissions are checked, not pinned");
        }
    }

    @Test
    void aServingTargetThatIsSomeoneElsesTableOrAnInvalidModeIsRefusedTyped() throws Exception {
        String db = TestEngines.newAtomicDatabase(ch, "bundle_serving");
        try (H2MultiTableCdcFixture fx = new H2MultiTableCdcFixture(TestEngines.newH2Url(), "customers", "orders")) {
            ConnectionContext context = context(fx.url, "sa");
            CdcRunOptions o = CdcRunOptions.builder(CdcMode.live).systems("mssql", "clickhouse").backend("mssql_cdc")
                .pipelineName("shop-serving")
                .tables(List.of(new CdcRunOptions.Table("dbo", "customers", db + ".customers_cdc", List.of("id")),
                    new CdcRunOptions.Table("dbo", "orders", db + ".orders_cdc", List.of("id"))))
                .connections(TestEngines.SOURCE, TestEngines.CLICKHOUSE).build();
            ch.execute("CREATE TABLE " + ClickHouseSql.table(db, "customers") + " (id Int32) ENGINE = MergeTree "
                + "ORDER BY id COMMENT 'the finance team''s table'");
            ch.execute("CREATE TABLE " + ClickHouseSql.table(db, "orders") + " (id Int32) ENGINE = MergeTree "
                + "ORDER BY id COMMENT " + ClickHouseSql.literal("dpone.cdc_materialized.v1 source=" + db
                + ".orders_cdc delete_mode=exclude_deleted"));
            Map<String, String> targets = new LinkedHashMap<>();
            targets.put("dbo.customers", db + ".customers");
            targets.put("dbo.orders", db + ".orders");
            CdcPromotionBundle red = build(o, context, null, new ServingPlan("rebuild", null, null, targets, null));
            assertEquals(Set.of("cdc_bundle.serving_target_not_owned"), codes(red));
            Blocker b = red.blockers().get(0);
            assertEquals("dbo.customers", b.details().get("table"));
            assertEquals(db + ".customers", b.details().get("serving_target"));
            assertEquals("--table[0].materialize_target", b.subject());
            assertEquals("passed", check(red.tables().get(1).checks(), "serving_target").status().name(),
                "dpone's serving table of this very log");

            // dpone's serving table of another log is not this stream's either
            targets.put("dbo.customers", db + ".orders");
            CdcPromotionBundle crossed = build(o, context, null, new ServingPlan("rebuild", null, null, targets,
                null));
            assertEquals(Set.of("cdc_bundle.serving_target_not_owned"), codes(crossed));
            assertTrue(crossed.blockers().get(0).message().contains("another CDC log (" + db + ".orders_cdc)"),
                crossed.blockers().get(0).message());

            // an invalid mode, a target that is the log itself
            targets.put("dbo.customers", db + ".customers_cdc");
            CdcPromotionBundle invalid = build(o, context, null, new ServingPlan("fast", "soft", null, targets, null));
            assertEquals(Set.of("cdc_bundle.serving_config_invalid"), codes(invalid));
            assertEquals(Set.of("--materialize-mode", "--materialize-delete-mode", "--table[0].materialize_target"),
                invalid.blockers().stream().filter(x -> "dbo.customers".equals(x.details().get("table")))
                    .map(Blocker::subject).collect(Collectors.toSet()));
            assertEquals(red.digest(), invalid.digest(), "the serving target is checked, not pinned");
        } finally {
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
    }
}
