package io.dpone.cdc.bundle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dpone.cdc.mssql.H2CdcFixture;
import io.dpone.cdc.mssql.H2ChangeTrackingFixture;
import io.dpone.cdc.mssql.H2MultiTableCdcFixture;
import io.dpone.cdc.runtime.CdcMode;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.testing.TestEngines;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An approval recorded before the bundle gained its permission, retention, privilege and serving-target checks stays
 * valid: on the same H2 emulations, the digests are the ones the bundle code of ab8c3af computed (measured by
 * building both versions' bundles of these three streams side by side; the sink is not reached, which the digest
 * does not cover). A change here means every approved bundle drifts: say so where the change is made.
 */
class ApprovalDigestCompatibilityTest {
    private static CdcPromotionBundle build(String url, CdcRunOptions o) {
        ConnectionContext c = ConnectionContext.of(Map.of(
            "src", new ContextEntry("src", ConnectionType.MSSQL, url, "sa", null, null, false, Map.of()),
            "sink", new ContextEntry("sink", ConnectionType.CLICKHOUSE, "http://127.0.0.1:9", null, null, null, false,
                Map.of())), false);
        return PromotionChecks.build(o, c, alias -> "not reached");
    }

    private static CdcRunOptions.Builder stream(String backend, String pipeline) {
        return CdcRunOptions.builder(CdcMode.live).systems("mssql", "clickhouse").backend(backend)
            .pipelineName(pipeline).connections("src", "sink");
    }

    @Test
    void theDigestsOfBundlesApprovedBeforeTheNewChecksAreUnchanged() throws Exception {
        try (H2CdcFixture cdc = new H2CdcFixture(TestEngines.newH2Url());
             H2ChangeTrackingFixture ct = new H2ChangeTrackingFixture(TestEngines.newH2Url());
             H2MultiTableCdcFixture multi = new H2MultiTableCdcFixture(TestEngines.newH2Url(), "customers", "orders")) {
            assertEquals("80c7233cd056942da5dcbf9ec840673f35da70fd081d8009bdd17f9ce5033f2b", build(cdc.url,
                stream("mssql_cdc", "orders-cdc").sourceTable("dbo", "orders").targetDataset("analytics.orders_cdc")
                    .uniqueKeys(List.of("order_id")).build()).digest());
            assertEquals("4e196139782d394713fee46ca4701b1f3f7d283a2e0f0bf5f2b38e7150dc39ed", build(ct.url,
                stream("mssql_change_tracking", "orders-ct").sourceTable("dbo", "orders")
                    .targetDataset("analytics.orders_ct").uniqueKeys(List.of("order_id")).build()).digest());
            assertEquals("3fb47c35b3c8bfed369b60caf7b9ec0ea03e14318469cbe0f52f32b37df187e7", build(multi.url,
                stream("mssql_cdc", "shop").tables(List.of(
                    new CdcRunOptions.Table("dbo", "customers", "analytics.customers_cdc", List.of("id")),
                    new CdcRunOptions.Table("dbo", "orders", "analytics.orders_cdc", List.of("id")))).build())
                .digest());
        }
    }
}
