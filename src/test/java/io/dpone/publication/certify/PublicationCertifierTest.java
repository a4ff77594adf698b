package io.dpone.publication.certify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.error.DponeException;
import io.dpone.manifest.BatchManifest;
import io.dpone.manifest.ManifestLoader;
import io.dpone.testing.CliRun;
import io.dpone.testing.TestEngines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Live certification: refused without explicit approval; a run that cannot publish is FAIL evidence, never PASS. */
@io.dpone.testing.EngineTest
class PublicationCertifierTest {
    private static final Path EXTERNAL = Path.of("examples/batch/clickhouse-external-replication-full-refresh.batch.yaml");

    @TempDir
    Path out;

    @Test
    void withoutTheDeploymentsApprovalNothingRunsAndNoEvidenceIsWritten() {
        BatchManifest m = ManifestLoader.load(EXTERNAL);
        PublicationCertifier certifier = new PublicationCertifier(TestEngines.context(TestEngines.newH2Url()), name -> null);
        DponeException e = assertThrows(DponeException.class, () -> certifier.certify(m, "cert-1", "staging", out));
        assertEquals("certify.environment_not_approved", e.blockers().get(0).code());
        PublicationCertifier other = new PublicationCertifier(TestEngines.context(TestEngines.newH2Url()),
            Map.of(PublicationCertifier.APPROVAL_ENV, "production")::get);
        assertThrows(DponeException.class, () -> other.certify(m, "cert-1", "staging", out));
        assertFalse(Files.exists(out.resolve(PublicationCertifier.FILE)));
    }

    @Test
    void anApprovedRunThatCannotPublishWritesFailEvidence() throws Exception {
        BatchManifest m = ManifestLoader.load(EXTERNAL);
        ConnectionContext ctx = ConnectionContext.of(Map.of(
            "mssql_demo", new ContextEntry("mssql_demo", ConnectionType.MSSQL, TestEngines.newH2Url(), "sa", null, null,
                false, Map.of()),
            "clickhouse_default", new ContextEntry("clickhouse_default", ConnectionType.CLICKHOUSE, null, null, null,
                null, true, Map.of("path", TestEngines.clickHousePath().toString()))), false);
        PublicationCertification c = new PublicationCertifier(ctx, Map.of(PublicationCertifier.APPROVAL_ENV, "staging",
            "DPONE_EXTERNAL_ARTIFACT_STORE", out.resolve("artifacts").toString())::get).certify(m, "cert-1", "staging", out);
        assertEquals("FAIL", c.evidenceStatus());
        assertEquals("live_certification", c.evidenceScope());
        assertEquals("publication.inventory_incomplete", c.blockers().get(0).code());
        String json = Files.readString(out.resolve(PublicationCertifier.FILE));
        assertTrue(json.contains("\"evidence_status\" : \"FAIL\""), json);
        assertTrue(json.contains(PublicationCertification.SCHEMA));
        assertEquals("staging", c.environment());
        assertEquals(io.dpone.report.BuildInfo.commit(), c.buildCommit());
        assertTrue(json.contains("\"environment\" : \"staging\""), json);
        assertTrue(json.contains("\"build_commit\" : \"" + io.dpone.report.BuildInfo.commit() + "\""), json);
    }

    @Test
    void theCliRefusesAnUnapprovedEnvironmentWithExitOne() {
        CliRun r = CliRun.of("certify", "publication", "--manifest", EXTERNAL.toString(), "--approve-environment",
            "staging", "--run-id", "cert-1", "--output", out.toString(), "--format", "json");
        assertEquals(1, r.exitCode());
        assertEquals("", r.stdout());
        assertTrue(r.stderr().contains("certify.environment_not_approved"), r.stderr());
    }
}
