package io.dpone.publication.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.publication.MemberId;
import io.dpone.publication.protocol.FenceRecord;
import io.dpone.publication.protocol.Phase;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class FenceRecordJsonTest {
    static final MemberId A = MemberId.of("c", "a", 9000);

    @Test
    void theInventoryDigestRoundTrips() {
        FenceRecord r = FenceRecord.fenced("op-1", "inv-0123456789abcdef01234567").sealed("g-1", "ab".repeat(32), 5)
            .ready(Map.of(A, new FenceRecord.MemberRecord(null, UUID.randomUUID())))
            .ddlRecorded("dpone-op-1-g-1-exchange", Instant.parse("2026-02-03T04:05:06Z"));
        String json = FenceRecordJson.encode(r);
        assertTrue(json.contains("\"inventory_digest\":\"inv-0123456789abcdef01234567\""), json);
        assertEquals(r, FenceRecordJson.decode(json, "t-x"));
    }

    /** A record as dpone wrote it before the digest was kept: it still decodes, with no digest. */
    @Test
    void aRecordWrittenBeforeTheDigestWasKeptDecodesWithoutOne() {
        UUID candidate = UUID.fromString("3f1c1a52-7a4b-4c55-9a0e-2d1f0e9b8c7d");
        String legacy = "{\"schema\":\"dpone.publication.fence-record.v1\",\"operation_id\":\"op-1\",\"phase\":\"READY\","
            + "\"generation_id\":\"g-1\",\"artifact_sha256\":\"" + "cd".repeat(32) + "\",\"artifact_rows\":7,"
            + "\"members\":{\"" + A.value() + "\":{\"predecessor_uuid\":null,\"candidate_uuid\":\"" + candidate + "\"}},"
            + "\"ddl_query_id\":null,\"ddl_recorded_at\":null}";
        FenceRecord r = FenceRecordJson.decode(legacy, "t-x");
        assertNull(r.inventoryDigest());
        assertEquals(Phase.READY, r.phase());
        assertEquals(7, r.artifactRows());
        assertEquals(candidate, r.members().get(A).candidateUuid());
        assertEquals(new FenceRecord("op-1", Phase.READY, "g-1", "cd".repeat(32), 7,
            Map.of(A, new FenceRecord.MemberRecord(null, candidate)), null, null), r);
        assertTrue(FenceRecordJson.encode(r).endsWith(",\"inventory_digest\":null}"), "re-encoded, the key is explicit");
    }
}
