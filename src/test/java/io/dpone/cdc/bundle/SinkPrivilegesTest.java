package io.dpone.cdc.bundle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.cdc.bundle.Findings.Lane;
import io.dpone.cdc.runtime.CdcMode;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.error.Blocker;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * {@code sink_privileges} against a sink that answers {@code CHECK GRANT} as a server whose user lacks some
 * privileges would (the embedded engine's user holds them all: {@link BundleChecksTest} covers the pass), and
 * against one that does not know the statement.
 */
class SinkPrivilegesTest {
    /** A sink that answers CHECK GRANT with 0 where {@code denied} says so, 1 elsewhere, and records the questions. */
    private static class GrantsSink implements ClickHouseEndpoint {
        final List<String> asked = new ArrayList<>();
        final Predicate<String> denied;
        final boolean knowsCheckGrant;

        GrantsSink(Predicate<String> denied, boolean knowsCheckGrant) {
            this.denied = denied;
            this.knowsCheckGrant = knowsCheckGrant;
        }

        @Override
        public void execute(String sql) {
            throw new AssertionError("the bundle writes nothing: " + sql);
        }

        @Override
        public List<List<String>> query(String sql) {
            asked.add(sql);
            if (!knowsCheckGrant) {
                throw new io.dpone.clickhouse.ClickHouseQueryException("Code: 62. DB::Exception: Syntax error: "
                    + "failed at position 1 (CHECK): CHECK GRANT. (SYNTAX_ERROR)");
            }
            return List.of(List.of(denied.test(sql) ? "0" : "1"));
        }

        @Override
        public void insertFile(InsertFile insert) {
            throw new AssertionError("the bundle writes nothing");
        }

        @Override
        public String kind() {
            return "test";
        }

        @Override
        public void close() {
        }
    }

    private static Findings findings(CdcRunOptions o) {
        Findings f = new Findings();
        f.lanes.add(new Lane(o.sourceSchema(), o.sourceTable(), o.targetDataset(), o.uniqueKeys(), "dbo_orders",
            "--unique-key", f.stream));
        return f;
    }

    private static CdcRunOptions options(String dataset) {
        return CdcRunOptions.builder(CdcMode.live).systems("mssql", "clickhouse").backend("mssql_cdc")
            .pipelineName("orders-cdc").sourceTable("dbo", "orders").targetDataset(dataset)
            .uniqueKeys(List.of("order_id")).connections("src", "sink").build();
    }

    @Test
    void aUserWithoutInsertOnTheLogDatabaseIsRefusedTypedNamingWhatIsMissing() {
        CdcRunOptions o = options("analytics.orders_cdc");
        Findings f = findings(o);
        GrantsSink sink = new GrantsSink(sql -> sql.startsWith("CHECK GRANT INSERT ")
            || sql.startsWith("CHECK GRANT ALTER MODIFY COLUMN "), true);
        new SinkChecks(o, null, f, null).privileges(sink);
        assertEquals(List.of("CHECK GRANT CREATE DATABASE ON `analytics`.*", "CHECK GRANT CREATE TABLE ON "
            + "`analytics`.*", "CHECK GRANT INSERT ON `analytics`.*", "CHECK GRANT SELECT ON `analytics`.*",
            "CHECK GRANT ALTER ADD COLUMN ON `analytics`.*", "CHECK GRANT ALTER MODIFY COLUMN ON `analytics`.*",
            "CHECK GRANT ALTER COMMENT COLUMN ON `analytics`.*"),
            sink.asked, "the log and the offset store share the database: asked once");
        assertEquals("failed", f.stream.checks.get(0).status().name());
        assertEquals(1, f.stream.blockers.size());
        Blocker b = f.stream.blockers.get(0);
        assertEquals("cdc_bundle.sink_privilege_missing", b.code());
        assertEquals("--sink-connection-id", b.subject());
        assertEquals("analytics", b.details().get("database"));
        assertEquals(List.of("INSERT", "ALTER MODIFY COLUMN"), b.details().get("missing"));
        assertTrue(b.message().contains("GRANT INSERT, ALTER MODIFY COLUMN ON analytics.*"), b.message());
    }

    @Test
    void everyPrivilegeHeldPassesAndAnOlderServerSkipsTheCheck() {
        CdcRunOptions o = options("analytics.orders_cdc");
        Findings held = findings(o);
        new SinkChecks(o, null, held, null).privileges(new GrantsSink(sql -> false, true));
        assertEquals("passed", held.stream.checks.get(0).status().name(), held.stream.checks.toString());
        assertTrue(held.stream.blockers.isEmpty());

        Findings older = findings(o);
        new SinkChecks(o, null, older, null).privileges(new GrantsSink(sql -> false, false));
        assertEquals("skipped", older.stream.checks.get(0).status().name());
        assertTrue(older.stream.checks.get(0).detail().contains("CHECK GRANT"), older.stream.checks.toString());
        assertTrue(older.stream.blockers.isEmpty());
    }

    /** Only a server that does not know the statement skips the check: another refusal or a fault is thrown on. */
    @Test
    void aRefusalOtherThanAnUnknownStatementIsNotASkip() {
        CdcRunOptions o = options("analytics.orders_cdc");
        Findings f = findings(o);
        GrantsSink refusing = new GrantsSink(sql -> false, true) {
            @Override
            public List<List<String>> query(String sql) {
                throw new io.dpone.clickhouse.ClickHouseQueryException("Code: 159. DB::Exception: Timeout exceeded: "
                    + "elapsed 10 seconds. (TIMEOUT_EXCEEDED)");
            }
        };
        assertThrows(io.dpone.clickhouse.ClickHouseQueryException.class,
            () -> new SinkChecks(o, null, f, null).privileges(refusing));
        assertTrue(f.stream.checks.stream().noneMatch(c -> c.status().name().equals("skipped")),
            f.stream.checks.toString());
    }
}
