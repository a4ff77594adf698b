package io.dpone.publication.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.testing.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code dpone plan} and {@code dpone check} on cluster publication manifests: the decision and every static blocker. */
class PlanCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path EXTERNAL = Path.of("examples/batch/clickhouse-external-replication-full-refresh.batch.yaml");
    private static final Path INTERNAL = Path.of("examples/batch/clickhouse-internal-replication-full-refresh.batch.yaml");

    @TempDir
    Path dir;

    @Test
    void theSpecCommandsRunAsWrittenOnTheShippedExternalExample() throws Exception {
        CliRun check = CliRun.of("check", EXTERNAL.toString(), "--format", "json");
        assertEquals(0, check.exitCode(), check.stderr());
        CliRun plan = CliRun.of("plan", EXTERNAL.toString(), "--format", "json");
        assertEquals(0, plan.exitCode(), plan.stderr());
        JsonNode d = JSON.readTree(plan.stdout()).get("publication");
        assertTrue(d.get("requested").asBoolean());
        assertTrue(d.get("selected").asBoolean());
        assertEquals("cluster_external", d.get("mode").asText());
        assertEquals("external", d.get("replication_mode").asText());
        assertTrue(d.get("runtime_admission_required").asBoolean());
        assertTrue(d.get("no_fallback").asBoolean());
        assertFalse(plan.stdout().contains("/var/lib/dpone"), "the artifact store path never appears in output");
    }

    @Test
    void theInternalExamplePlansClusterInternal() throws Exception {
        CliRun plan = CliRun.of("plan", INTERNAL.toString(), "--format", "json");
        assertEquals(0, plan.exitCode(), plan.stderr());
        JsonNode d = JSON.readTree(plan.stdout()).get("publication");
        assertEquals("cluster_internal", d.get("mode").asText());
        assertEquals("ReplicatedMergeTree", d.get("engine").asText());
    }

    @Test
    void aLocalManifestPlansALocalPublication() throws Exception {
        CliRun plan = CliRun.of("plan", "examples/batch/embedded-full-refresh.batch.yaml", "--format", "json");
        assertEquals(0, plan.exitCode(), plan.stderr());
        JsonNode r = JSON.readTree(plan.stdout());
        assertFalse(r.get("publication").get("requested").asBoolean());
        assertEquals("typed_binary_streaming", r.get("route_id").asText());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "engine: MergeTree|engine: ReplicatedMergeTree|publication.external_replicated_engine",
        "lineage: false|lineage: true|publication.lineage_unsupported",
        "ddl_scope: cluster|ddl_scope: local|publication.ddl_scope_not_cluster",
        "  staging:\\n    schema: analytics|  staging:\\n    schema: staging_db|publication.candidate_database_mismatch",
        "external_artifact_store_path: /var/lib/dpone/artifacts|# no artifact store|publication.artifact_store_missing",
        "external_artifact_store_path: /var/lib/dpone/artifacts|external_artifact_store_path: relative/artifacts|publication.artifact_store_not_absolute",
        "replication_mode: external|replication_mode: internal|publication.internal_engine_not_replicated",
    })
    void everyStaticBlockerIsReportedWithTheFullDecisionAndExitOne(String from, String to, String code) throws Exception {
        String yaml = Files.readString(EXTERNAL).replace(from.replace("\\n", "\n"), to == null ? "" : to.replace("\\n", "\n"));
        Path manifest = Files.writeString(dir.resolve("m.yaml"), yaml);
        CliRun plan = CliRun.of("plan", manifest.toString(), "--format", "json");
        assertEquals(1, plan.exitCode());
        assertEquals("", plan.stdout(), "a blocked plan goes to stderr only");
        JsonNode r = JSON.readTree(plan.stderr());
        assertTrue(codes(r.get("blockers")).contains(code), r.toString());
        JsonNode d = r.get("publication");
        assertTrue(d.get("requested").asBoolean());
        assertFalse(d.get("selected").asBoolean());
        assertTrue(d.get("no_fallback").asBoolean());
        assertTrue(d.get("runtime_admission_required").asBoolean());
        CliRun check = CliRun.of("check", manifest.toString(), "--format", "json");
        assertEquals(1, check.exitCode());
        assertTrue(codes(JSON.readTree(check.stderr()).get("blockers")).contains(code));
    }

    private static List<String> codes(JsonNode blockers) {
        List<String> codes = new ArrayList<>();
        blockers.forEach(b -> codes.add(b.get("code").asText()));
        return codes;
    }
}
