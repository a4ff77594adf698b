package io.dpone.cdc.mssql;

import static io.dpone.cdc.mssql.H2MultiTableCdcFixture.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.cdc.CdcBatch;
import io.dpone.cdc.CdcOffset;
import io.dpone.cdc.CdcOffsetStore;
import io.dpone.cdc.StreamIdentity;
import io.dpone.cdc.clickhouse.CdcMaterializer;
import io.dpone.cdc.runtime.CdcMode;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.cdc.runtime.CdcRuntime;
import io.dpone.cdc.runtime.CdcRuntimeRunReport;
import io.dpone.cdc.runtime.CdcTick;
import io.dpone.cdc.runtime.CdcTickRunner;
import io.dpone.cdc.runtime.LiveCdcRuntime;
import io.dpone.cdc.runtime.TableLanes;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import io.dpone.manifest.TableRef;
import io.dpone.publication.artifact.ArtifactFixtures;
import io.dpone.quality.GateResult;
import io.dpone.source.JdbcSourceReader;
import io.dpone.testing.CliRun;
import io.dpone.testing.TestEngines;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31 item 2's leftovers on the embedded default (the H2 CDC emulation and the embedded ClickHouse): a
 * multi-table stream whose tables are chosen by include/exclude patterns resolved against the capture instances, and
 * a table that joins a running stream (a capture instance that appears and matches, or a table added to the explicit
 * list) with its own snapshot hand-over while the other tables keep streaming from the one offset, including a crash
 * between the added table's snapshot and the commit.
 */
@io.dpone.testing.EngineTest
class MultiTableAddedTableTest {
    static final List<String> TABLES = List.of("customers", "orders", "items");
    static ClickHouseEndpoint ch;

    @TempDir
    Path dir;

    @BeforeAll
    static void open() {
        ch = TestEngines.clickhouse();
    }

    @AfterAll
    static void close() {
        ch.close();
    }

    @AfterEach
    void clearContext() {
        io.dpone.testing.LiveCdcContext.clear();
    }

    static CdcRunOptions patterns(String db, int maxEvents, List<String> include, List<String> exclude) {
        return CdcRunOptions.builder(CdcMode.live).systems("mssql", "clickhouse").backend(SqlServerCdcReader.BACKEND)
            .pipelineName("shop-patterns").connections("mssql_test", "clickhouse_test").maxEvents(maxEvents)
            .selection(new CdcRunOptions.TableSelection(include, exclude, db + ".{table}_cdc")).build();
    }

    static CdcRunOptions explicit(String db, int maxEvents, List<String> tables) {
        List<CdcRunOptions.Table> t = new ArrayList<>();
        for (String name : tables) {
            t.add(new CdcRunOptions.Table("dbo", name, db + "." + name + "_cdc", List.of("id")));
        }
        return CdcRunOptions.builder(CdcMode.live).systems("mssql", "clickhouse").backend(SqlServerCdcReader.BACKEND)
            .pipelineName("shop-explicit").tables(t).connections("mssql_test", "clickhouse_test")
            .maxEvents(maxEvents).build();
    }

    CdcTick tickOf(CdcRunOptions o, H2MultiTableCdcFixture fx) {
        return LiveCdcRuntime.tick(o, CdcRuntime.newRunId(), fx.connection, ch, dir.resolve("spool"));
    }

    CdcRuntimeRunReport tick(CdcRunOptions o, H2MultiTableCdcFixture fx) {
        return CdcTickRunner.run(tickOf(o, fx));
    }

    /** Ticks until one reads nothing; every tick passes. Returns the reports of the ticks that read something. */
    List<CdcRuntimeRunReport> drain(CdcRunOptions o, H2MultiTableCdcFixture fx) {
        List<CdcRuntimeRunReport> out = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            CdcRuntimeRunReport r = tick(o, fx);
            assertTrue(r.passed(), String.valueOf(r.blockers()));
            if (r.counts().read() == 0 && r.tables().stream().allMatch(t -> t.snapshotRows() == 0)) {
                return out;
            }
            out.add(r);
        }
        throw new AssertionError("the stream did not drain in 50 ticks");
    }

    static CdcRuntimeRunReport.TableFigures figures(CdcRuntimeRunReport r, String table) {
        return r.tables().stream().filter(t -> t.sourceTable().equals(table)).findFirst()
            .orElseThrow(() -> new AssertionError(table + " not in " + r.tables()));
    }

    /** Each table's log materialized into {@code db.<table>} equals its source table (a full refresh's gates). */
    static void servingEqualsSource(String url, String db, List<String> tables) {
        try (JdbcSourceReader reader = ArtifactFixtures.reader(url)) {
            for (String t : tables) {
                Map<String, Object> m = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(
                    db + "." + t + "_cdc", db + "." + t, List.of("id"), CdcMaterializer.DeleteMode.exclude_deleted),
                    null);
                assertEquals(true, m.get("passed"), String.valueOf(m.get("blockers")));
                List<GateResult> gates = ServingGates.compare(reader, new TableRef("dbo", t), ch, db, t);
                gates.forEach(g -> assertEquals("passed", g.status(), t + " " + g.gate() + ": " + g.details()));
            }
        }
    }

    long logRows(String db, String table) {
        return Long.parseLong(ch.query("SELECT count() FROM " + ClickHouseSql.table(db, table + "_cdc")).get(0)
            .get(0));
    }

    @Test
    void patternsResolveAgainstTheCaptureInstancesAndEveryMatchExclusionAndBlockerIsReported() throws Exception {
        String db = TestEngines.newDatabase("cdc_patterns");
        String url = TestEngines.newH2Url();
        try (H2MultiTableCdcFixture fx = new H2MultiTableCdcFixture(url, "customers", "orders", "audit_log")) {
            fx.createTable("drafts", true, row(1, "d", "1.00"));      // a primary key, no capture instance
            fx.createTable("notes", false);                          // a capture instance, no primary key
            fx.enableCdc("notes");
            fx.txn().insert("customers", row(1, "ann", "1.00")).insert("orders", row(7, "o", "2.00"))
                .insert("audit_log", row(1, "a", null)).insert("notes", row(1, "n", null)).commit();

            CdcRuntimeRunReport r = tick(patterns(db, 100, List.of("dbo.*"), List.of("*audit*")), fx);
            assertTrue(r.passed() && r.committed(), String.valueOf(r.blockers()));
            Map<String, Object> sel = r.tableSelection();
            assertNotNull(sel);
            assertEquals(List.of("dbo.customers", "dbo.orders"), tables(sel, "matched"));
            assertEquals(List.of("dbo.audit_log"), tables(sel, "excluded"));
            assertEquals("*audit*", ((Map<?, ?>) ((List<?>) sel.get("excluded")).get(0)).get("pattern"));
            Map<String, String> blocked = new LinkedHashMap<>();
            for (Object o : (List<?>) sel.get("blocked")) {
                Map<?, ?> m = (Map<?, ?>) o;
                assertEquals("cdc_runtime.table_not_streamable", m.get("code"));
                blocked.put(String.valueOf(m.get("table")), String.valueOf(m.get("reason")));
            }
            assertEquals(Map.of("dbo.drafts", "no_capture_instance", "dbo.notes", "no_primary_key"), blocked);
            Map<?, ?> orders = (Map<?, ?>) ((List<?>) sel.get("matched")).get(1);
            assertEquals(db + ".orders_cdc", orders.get("target_dataset"));
            assertEquals(List.of("id"), orders.get("unique_keys"));
            assertEquals("dbo_orders", orders.get("capture_instance"));
            assertEquals(1, figures(r, "dbo.orders").counts().applied());
            assertEquals(1, logRows(db, "customers"));
            assertEquals(0, Long.parseLong(ch.query("SELECT count() FROM system.tables WHERE database = "
                + ClickHouseSql.literal(db) + " AND name = 'audit_log_cdc'").get(0).get(0)), "excluded: no log");

            // patterns that match nothing streamable: a typed blocker naming each matched table, nothing read
            DponeException none = org.junit.jupiter.api.Assertions.assertThrows(DponeException.class,
                () -> tickOf(patterns(db, 100, List.of("dbo.notes", "dbo.drafts"), List.of()), fx));
            assertEquals(List.of("cdc_runtime.table_not_streamable"), none.blockers().stream().map(Blocker::code)
                .distinct().toList());
            assertEquals(List.of("dbo.drafts", "dbo.notes"), none.blockers().stream()
                .map(b -> b.details().get("table")).filter(java.util.Objects::nonNull).toList());

            // a template that cannot name a log, and a malformed pattern: invalid arguments before anything is read
            CdcRunOptions bad = CdcRunOptions.builder(CdcMode.live).systems("mssql", "clickhouse")
                .backend(SqlServerCdcReader.BACKEND).pipelineName("p").connections("a", "b")
                .selection(new CdcRunOptions.TableSelection(List.of("dbo.[x]"), List.of(), db + ".{schema}_cdc"))
                .build();
            assertEquals(List.of("--include-table", "--target-template"), bad.validate().stream()
                .map(Blocker::subject).toList());
        }
    }

    private static List<String> tables(Map<String, Object> selection, String part) {
        return ((List<?>) selection.get(part)).stream().map(o -> String.valueOf(((Map<?, ?>) o).get("table")))
            .toList();
    }

    @Test
    void theCliChoosesTablesByPatterns() throws Exception {
        String db = TestEngines.newDatabase("cli_patterns");
        try (H2MultiTableCdcFixture fx = new H2MultiTableCdcFixture(TestEngines.newH2Url(), "customers", "orders",
                "order_tmp")) {
            fx.txn().insert("customers", row(1, "ann", "1.00")).insert("orders", row(7, "o", "2.00"))
                .insert("order_tmp", row(7, "o", "2.00")).commit();
            io.dpone.testing.LiveCdcContext.useEmbedded(dir, fx.url);
            CliRun run = MultiTableCdcTickTest.cli("--include-table", "dbo.*", "--exclude-table", "*_tmp",
                "--target-template", db);
            assertEquals(0, run.exitCode(), run.stderr());
            JsonNode r = new ObjectMapper().readTree(run.stdout());
            assertTrue(r.path("committed").asBoolean());
            assertEquals(2, r.path("tables").size());
            assertEquals(db + ".dbo_orders_cdc", r.path("tables").path(1).path("target_dataset").asText());
            assertEquals("dbo.order_tmp", r.path("table_selection").path("excluded").path(0).path("table").asText());
            CliRun mixed = MultiTableCdcTickTest.cli("--include-table", "dbo.*", "--target-template", db,
                "--table", "dbo.customers=" + db + ".c:id");
            assertEquals(2, mixed.exitCode());
            assertTrue(mixed.stderr().contains("use one or the other"), mixed.stderr());
        }
    }

    /**
     * The snapshot of each added table, with a source transaction committed just before it is read (in the snapshot
     * and above its position: both) and one just after (above its position, not in the snapshot).
     */
    static CdcTick withConcurrentWriters(CdcTick tick, H2MultiTableCdcFixture fx,
                                         Function<Function<CdcOffset, CdcBatch>, Function<CdcOffset, CdcBatch>> wrap) {
        CdcTick.Adapters a = tick.adapters();
        List<TableLanes.Lane> lanes = a.lanes().lanes().stream().map(l -> new TableLanes.Lane(l.table(), l.reader(),
            l.applier(), l.snapshot() == null ? null : wrap.apply(l.snapshot()))).toList();
        TableLanes wrapped = new TableLanes(tick.stream(), lanes).withSelection(a.lanes().selection());
        return new CdcTick(tick.runId(), tick.options(), new CdcTick.Adapters(wrapped.reader(), a.idempotency(),
            wrapped.applier(), a.offsets(), a.fence(), wrapped), tick.maxEvents());
    }

    @Test
    void aCaptureInstanceThatAppearsMidStreamStartsWithItsOwnSnapshotWhileTheOtherTablesKeepStreaming()
        throws Exception {
        String db = TestEngines.newDatabase("cdc_added");
        String url = TestEngines.newH2Url();
        try (H2MultiTableCdcFixture fx = new H2MultiTableCdcFixture(url, TABLES.toArray(String[]::new))) {
            for (int i = 1; i <= 4; i++) {
                fx.txn().insert("customers", row(i, "c" + i, i + ".00")).insert("orders", row(i, "o" + i, null))
                    .insert("items", row(i, "i" + i, "1.00")).commit();
            }
            CdcRunOptions o = patterns(db, 5, List.of("dbo.*"), List.of());
            drain(o, fx);
            // dbo.returns exists with rows before CDC is enabled on it; the others keep changing
            Object[][] existing = new Object[12][];
            for (int i = 0; i < existing.length; i++) {
                existing[i] = row(100 + i, "r" + i, i % 3 == 0 ? null : i + ".25");
            }
            fx.createTable("returns", true, existing);
            // matched by the pattern, not streamable yet: reported, and the others go on
            fx.txn().insert("items", row(5, "i5", null)).commit();
            CdcRuntimeRunReport before = tick(o, fx);
            assertTrue(before.passed() && before.committed(), String.valueOf(before.blockers()));
            assertEquals(1, before.counts().applied());
            assertEquals(List.of("dbo.returns"), tables(before.tableSelection(), "blocked"));
            assertEquals(3, before.tables().size());
            fx.txn().update("orders", row(1, "o1", null), row(1, "o1 paid", "9.00")).commit();
            fx.enableCdc("returns");
            fx.txn().insert("returns", row(200, "new", "2.00")).delete("customers", row(2, "c2", "2.00")).commit();
            fx.txn().update("returns", row(101, "r1", "1.25"), row(101, "r1 changed", "1.50")).commit();

            CdcTick adding = withConcurrentWriters(tickOf(o, fx), fx, inner -> from -> {
                try {
                    // committed after the stream's position, before the snapshot is read: in both
                    fx.txn().delete("returns", row(102, "r2", "2.25")).insert("items", row(9, "i9", null)).commit();
                    CdcBatch b = inner.apply(from);
                    // committed after the snapshot was read: only the changes carry it
                    fx.txn().update("returns", row(103, "r3", null), row(103, "r3 late", "3.00"))
                        .insert("returns", row(201, "later", null)).commit();
                    return b;
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            CdcRuntimeRunReport r = CdcTickRunner.run(adding);
            assertTrue(r.passed() && r.committed(), String.valueOf(r.blockers()));
            CdcRuntimeRunReport.TableFigures added = figures(r, "dbo.returns");
            assertEquals("added", added.state());
            assertEquals(12, added.snapshotRows(), "12 rows before CDC, +200 inserted, -102 deleted before the read");
            assertEquals(12, added.snapshotApplied());
            assertEquals("streaming", figures(r, "dbo.orders").state());
            assertEquals(0, figures(r, "dbo.orders").snapshotRows());
            // the offset records every table's state: returns' lane, ahead of the stream while the cap holds it
            JsonNode state = new ObjectMapper().readTree(String.valueOf(r.offsetAfter().get("resume")));
            assertEquals(List.of("dbo.customers", "dbo.items", "dbo.orders", "dbo.returns"),
                iterable(state.path("tables").fieldNames()));
            assertFalse(state.path("tables").path("dbo.customers").has("from"));

            drain(o, fx);
            fx.txn().update("returns", row(100, "r0", null), row(100, "r0 again", null)).delete("returns",
                row(201, "later", null)).insert("customers", row(50, "c50", "5.00")).commit();
            List<CdcRuntimeRunReport> after = drain(o, fx);
            assertEquals(1, after.size());
            assertEquals(4, after.get(0).counts().applied(), "returns streams like the others now");
            assertEquals("streaming", figures(after.get(0), "dbo.returns").state());
            JsonNode later = new ObjectMapper().readTree(String.valueOf(after.get(0).offsetAfter().get("resume")));
            assertFalse(later.path("tables").path("dbo.returns").has("from"), "the stream reached its position");
            List<String> all = new ArrayList<>(TABLES);
            all.add("returns");
            servingEqualsSource(url, db, all);
        }
    }

    private static List<String> iterable(java.util.Iterator<String> it) {
        List<String> out = new ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }

    @Test
    void aCrashBetweenTheAddedTablesSnapshotAndTheCommitResumesExactly() throws Exception {
        String db = TestEngines.newDatabase("cdc_added_crash");
        String url = TestEngines.newH2Url();
        try (H2MultiTableCdcFixture fx = new H2MultiTableCdcFixture(url, "customers", "orders", "items")) {
            fx.txn().insert("customers", row(1, "c1", "1.00")).insert("orders", row(1, "o1", null))
                .insert("items", row(1, "i1", "1.00")).commit();
            // an explicit list: the fourth table is added to it
            drain(explicit(db, 10, TABLES), fx);
            fx.createTable("returns", true, row(1, "a", "1.00"), row(2, "b", "2.00"), row(3, "c", null),
                row(4, "d", "4.00"));
            fx.enableCdc("returns");
            fx.txn().update("returns", row(1, "a", "1.00"), row(1, "a2", "1.50")).insert("orders", row(2, "o2", null))
                .commit();
            List<String> four = List.of("customers", "orders", "items", "returns");
            CdcRunOptions o = explicit(db, 10, four);

            CdcTick crashing = tickOf(o, fx);
            CdcTick.Adapters a = crashing.adapters();
            CrashOnCommit crash = new CrashOnCommit(a.offsets());
            CdcRuntimeRunReport crashed = CdcTickRunner.run(new CdcTick(crashing.runId(), o,
                new CdcTick.Adapters(a.reader(), a.idempotency(), a.applier(), crash, a.fence(), a.lanes()),
                crashing.maxEvents()));
            assertFalse(crashed.passed() || crashed.committed());
            assertTrue(crash.called, "the crash came after every apply, at the commit");
            assertEquals(4 + 2, logRows(db, "returns"), "the snapshot (4 rows) and the update's two images landed");
            CdcOffset before = a.offsets().load(o.stream()).orElseThrow();
            assertFalse(before.resume().contains("dbo.returns"), "nothing committed: returns is not in the offset");

            // while the stream is down: a snapshot row is deleted, another updated, a key inserted
            fx.txn().delete("returns", row(2, "b", "2.00")).update("returns", row(3, "c", null), row(3, "c2", "3.00"))
                .insert("returns", row(5, "e", "5.00")).commit();
            CdcRuntimeRunReport again = tick(o, fx);
            assertTrue(again.passed() && again.committed(), String.valueOf(again.blockers()));
            CdcRuntimeRunReport.TableFigures added = figures(again, "dbo.returns");
            assertEquals("added", added.state());
            assertEquals(4, added.snapshotRows(), "rows 1, 3, 4, 5 now");
            assertEquals(1, added.snapshotApplied(), "only key 5 was not in the log: nothing written twice");
            assertEquals(0, figures(again, "dbo.orders").counts().applied());
            assertEquals(1, figures(again, "dbo.orders").counts().alreadyInSink(), "the crashed tick's change");
            drain(o, fx);
            servingEqualsSource(url, db, four);

            // a table removed from the list leaves the offset at the next commit; its log stays
            fx.txn().insert("customers", row(9, "c9", null)).commit();
            CdcRuntimeRunReport three = tick(explicit(db, 10, TABLES), fx);
            assertTrue(three.passed() && three.committed(), String.valueOf(three.blockers()));
            assertFalse(String.valueOf(three.offsetAfter().get("resume")).contains("dbo.returns"));
            // a recorded table whose log changed is refused, named
            CdcRuntimeRunReport moved = tick(explicit(db, 10, TABLES).toBuilder().tables(List.of(
                new CdcRunOptions.Table("dbo", "customers", db + ".customers_v2", List.of("id")),
                new CdcRunOptions.Table("dbo", "orders", db + ".orders_cdc", List.of("id")),
                new CdcRunOptions.Table("dbo", "items", db + ".items_cdc", List.of("id")))).build(), fx);
            assertFalse(moved.passed());
            assertEquals(List.of("cdc_runtime.checkpoint_stream_mismatch"), figures(moved, "dbo.customers").blockers()
                .stream().map(Blocker::code).toList());
        }
    }

    /** An offset store whose commit crashes: every table (the added one's snapshot too) applied, nothing committed. */
    private static final class CrashOnCommit implements CdcOffsetStore {
        private final CdcOffsetStore inner;
        boolean called;

        CrashOnCommit(CdcOffsetStore inner) {
            this.inner = inner;
        }

        @Override
        public Optional<CdcOffset> load(StreamIdentity stream) {
            return inner.load(stream);
        }

        @Override
        public void commit(StreamIdentity stream, Optional<CdcOffset> expected, CdcOffset next, String writer) {
            called = true;
            throw new IllegalStateException("the process died between the added table's snapshot and the commit");
        }
    }
}
