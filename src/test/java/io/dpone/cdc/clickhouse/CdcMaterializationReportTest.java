package io.dpone.cdc.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.connect.Redactor;
import io.dpone.error.Blocker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The materializer's report rendering, apart from the materialization (CdcMaterializerTest runs the whole). */
class CdcMaterializationReportTest {
    private static final String SECRET = "materialization-report-secret-5a1c";

    @TempDir
    Path dir;

    static Map<String, Object> report(boolean passed, List<Blocker> blockers) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("schema", CdcMaterializationReport.SCHEMA);
        r.put("passed", passed);
        r.put("cdc_dataset", "cdc_log.orders_cdc");
        r.put("target_dataset", "serving.orders");
        r.put("unique_keys", List.of("order_id"));
        r.put("delete_mode", "tombstone");
        r.put("publish", "rename");
        r.put("rows_in", 12L);
        r.put("keys_out", 5L);
        r.put("blockers", blockers);
        return r;
    }

    @Test
    void theMarkdownHasTheHeaderThenTheEntriesPresentInTheirOrder() {
        String md = CdcMaterializationReport.markdown(report(true, List.of()));
        assertEquals("""
            # CDC materialization

            - passed: true
            - cdc dataset: `cdc_log.orders_cdc`
            - target dataset: `serving.orders`
            - unique keys: [order_id]
            - delete mode: tombstone
            - rows in: 12
            - keys out: 5
            - publish: rename
            """, md);
    }

    @Test
    void blockersAreATableWithTheirPipesEscaped() {
        String md = CdcMaterializationReport.markdown(report(false, List.of(new Blocker(
            CdcMaterializer.TARGET_NOT_OWNED, "--target-dataset", "a | b was not replaced", Map.of()))));
        assertTrue(md.contains("- passed: false\n"), md);
        assertTrue(md.endsWith("\n## Blockers\n\n| code | subject | message |\n| --- | --- | --- |\n| "
            + CdcMaterializer.TARGET_NOT_OWNED + " | --target-dataset | a \\| b was not replaced |\n"), md);
    }

    @Test
    void bothFilesAreWrittenRedacted() throws Exception {
        Redactor.global().registerSecret(SECRET);
        Map<String, Object> r = report(false, List.of(new Blocker(CdcMaterializer.VERIFY_FAILED, "--target-dataset",
            "staging holds " + SECRET, Map.of())));
        CdcMaterializationReport.write(dir, r);
        JsonNode json = new ObjectMapper().readTree(dir.resolve(CdcMaterializer.JSON_FILE).toFile());
        assertEquals("dpone.cdc_materialization.v1", json.path("schema").asText());
        assertEquals(CdcMaterializer.VERIFY_FAILED, json.path("blockers").get(0).path("code").asText());
        String md = Files.readString(dir.resolve(CdcMaterializer.MD_FILE));
        assertTrue(md.startsWith("# CDC materialization\n"), md);
        assertFalse(Files.readString(dir.resolve(CdcMaterializer.JSON_FILE)).contains(SECRET), "JSON redacted");
        assertFalse(md.contains(SECRET), "Markdown redacted");
    }
}
