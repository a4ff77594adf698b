package io.dpone.cdc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The tick route and its steps know the adapter interfaces only: no SQL Server or ClickHouse branch. */
class CdcOrchestratorNeutralityTest {
    static final List<String> ORCHESTRATOR = List.of("CdcTick", "CdcStep", "LoadOffsetStep", "ReadBatchStep",
        "IdempotencyStep", "ApplyStep", "CommitOffsetStep", "ReportStep", "CdcTickRunner", "CdcReports");

    @Test
    void noBackendNamesInTheOrchestrator() throws Exception {
        Path pkg = Path.of("src/main/java/io/dpone/cdc/runtime");
        for (String cls : ORCHESTRATOR) {
            String src = Files.readString(pkg.resolve(cls + ".java")).toLowerCase(Locale.ROOT);
            for (String word : List.of("mssql", "sqlserver", "sql server", "clickhouse", "jdbc")) {
                assertFalse(src.contains(word), cls + " mentions " + word);
            }
        }
        String route = Files.readString(Path.of("src/main/resources/routes/cdc_runtime_tick.yaml"));
        List<String> steps;
        try (Stream<String> lines = route.lines()) {
            List<String> all = lines.map(String::trim).toList();
            // the ids of the route's processing steps, in order (not the doTry/doCatch around them)
            steps = java.util.stream.IntStream.range(1, all.size()).filter(i -> all.get(i - 1).equals("- process:"))
                .mapToObj(all::get).filter(l -> l.startsWith("id: ")).map(l -> l.substring(4)).toList();
        }
        assertEquals(List.of("cdc_load_offset", "cdc_read_batch", "cdc_idempotency", "cdc_apply",
            "cdc_commit_offset", "cdc_report"), steps);
    }
}
