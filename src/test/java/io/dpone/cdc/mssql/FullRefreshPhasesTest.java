package io.dpone.cdc.mssql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.camel.DponeCamel;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.route.FullRefreshRunner;
import io.dpone.route.ProgressListener;
import io.dpone.route.RunReport;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run with a CDC hand-over enters through the {@code full_refresh} route, and every phase of it is a step JMX lists
 * by id, with its exchanges counted: the hand-over position, the local/cluster choice, the transfer route (its seven
 * prepare steps, the load, the gates, the publication, the cleanup) and the hand-over commit. The run's progress
 * listener sees the same steps in the order they ran.
 */
@io.dpone.testing.EngineTest
class FullRefreshPhasesTest {
    @TempDir
    Path dir;

    /** The steps of a passing local run with a hand-over, in the order they first ran. */
    static final List<String> ORDER = List.of("hand_over", "hand_over_position", "decide_publication", "publication",
        "plan_run", "transfer", "set_format", "open_engine", "detect_resume", "published_before",
        "open_source", "prepare_sink", "start_encoder", "create_staging", "staging_stats", "chunks", "load_chunk",
        "quality_gates", "publish", "drop_predecessor", "cleanup_audit", "close_run", "run_report", "hand_over_after",
        "hand_over_commit", "finish");

    @Test
    void jmxListsEveryPhaseOfARunWithAHandOverByStepId() throws Exception {
        String db = TestEngines.newDatabase("phases");
        String url = TestEngines.newH2Url();
        try (H2CdcFixture fx = new H2CdcFixture(url);
             DponeCamel camel = DponeCamel.start(null, true)) {
            H2CdcFixture.Txn txn = fx.txn();
            Random r = new Random(7);
            for (int id = 1; id <= 300; id++) {
                txn.insert(LiveServingTableGatesTest.randomRow(r, id));
            }
            txn.commit();
            Path manifest = Manifests.write(dir.resolve("m.yaml"), """
                source:
                  type: mssql
                  connection_ref: %s
                  table: {schema: dbo, name: orders}
                  options: {chunk_rows: 100}
                sink:
                  type: clickhouse
                  connection_ref: %s
                  table: {schema: %s, name: orders_snapshot}
                  strategy: {mode: full_refresh}
                cdc:
                  backend: mssql_cdc
                  pipeline_name: orders-phases
                  log_dataset: %s.orders_cdc
                  unique_keys: [order_id]
                  offset_store: file
                  checkpoint_json: %s
                """.formatted(TestEngines.SOURCE, TestEngines.CLICKHOUSE, db, db, dir.resolve("checkpoint.json")));
            List<String> phases = Collections.synchronizedList(new ArrayList<>());
            ProgressListener progress = new ProgressListener() {
                @Override
                public void rowsRead(long rows) {
                }

                @Override
                public void phase(String step) {
                    phases.add(step);
                }
            };
            RunReport report = new FullRefreshRunner(camel, TestEngines.context(url), dir.resolve("state"))
                .run(io.dpone.manifest.ManifestLoader.load(manifest), "phases-1", progress);
            assertTrue(report.passed(), String.valueOf(report.blockers()));
            assertEquals(300, report.loadedRows());
            assertTrue(report.notes().stream().anyMatch(n -> n.startsWith("cdc hand-over:")), report.notes().toString());

            assertEquals(ORDER, List.copyOf(new LinkedHashSet<>(phases)), "the steps, in the order they first ran");

            MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
            TreeSet<String> ran = new TreeSet<>();
            for (ObjectName o : jmx.queryNames(new ObjectName("org.apache.camel:context="
                + camel.context().getManagementName() + ",type=processors,*"), null)) {
                if (((Number) jmx.getAttribute(o, "ExchangesTotal")).longValue() > 0) {
                    ran.add((String) jmx.getAttribute(o, "ProcessorId"));
                }
            }
            List<String> wanted = new ArrayList<>();
            for (String step : List.of("hand_over", "hand_over_position", "decide_publication", "publication",
                    "plan_run", "transfer_attempt", "transfer", "run_report", "hand_over_after", "hand_over_commit",
                    "finish")) {
                wanted.add("full_refresh." + step);
            }
            for (String step : List.of("open_engine", "detect_resume", "published_before", "open_source",
                    "prepare_sink", "start_encoder", "create_staging", "staging_stats", "chunks", "load_chunk",
                    "quality_gates", "publish", "drop_predecessor", "cleanup_audit")) {
                wanted.add("typed_binary_streaming." + step);
            }
            assertTrue(ran.containsAll(wanted), "missing over JMX: " + wanted.stream().filter(w -> !ran.contains(w))
                .toList() + " of " + ran);
            assertTrue(ran.stream().noneMatch(id -> id.startsWith("full_refresh.cluster")
                || id.equals("typed_binary_streaming.restore_gates")), "no step of a branch not taken ran: " + ran);
            try (var ch = TestEngines.clickhouse()) {
                ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
            }
        }
    }
}
