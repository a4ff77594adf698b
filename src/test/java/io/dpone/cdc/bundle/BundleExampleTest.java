package io.dpone.cdc.bundle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/cdc.md's promotion bundle on the embedded default (its own {@code DPONE_HOME}, in a child JVM): the bundle of
 * the demo's CDC stream {@code sales-cdc} passes every check and is approved with its digest.
 */
@io.dpone.testing.ProcessTest
class BundleExampleTest {
    @TempDir
    Path home;

    @Test
    void theDemoStreamsBundlePassesAndIsApproved() throws Exception {
        Path out = home.resolve("example.out");
        int exit = io.dpone.testing.ChildJvm.main(BundleExampleMain.class)
            .withoutEnv("DPONE_RUNTIME_CONNECTION_CONTEXT").env("DPONE_HOME", home.toString())
            .env("DPONE_PROGRESS_INTERVAL", "0").mergeStderr().stdout(out)
            .run(java.time.Duration.ofSeconds(300), "the bundle example");
        String log = Files.readString(out);
        System.out.println(log);
        assertEquals(0, exit, log);
        assertTrue(log.contains("cdc-promotion-bundle sales-cdc passed") && log.contains("approved"), log);
        Path dir = home.resolve("bundles/sales-cdc");
        ObjectMapper m = new ObjectMapper();
        JsonNode bundle = m.readTree(Files.readString(dir.resolve(CdcPromotionBundle.JSON_FILE)));
        JsonNode approval = m.readTree(Files.readString(dir.resolve(CdcPromotionBundle.APPROVAL_FILE)));
        assertTrue(bundle.path("passed").asBoolean(), bundle.toString());
        assertEquals("dbo_sales", bundle.path("source").path("capture_instance").asText());
        assertTrue(bundle.path("columns").size() > 5, bundle.path("columns").toString());
        assertEquals(bundle.path("digest").asText(), approval.path("digest").asText());
        assertEquals("Jane Doe", approval.path("approver").asText());
    }
}
