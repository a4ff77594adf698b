package io.dpone.publication.receipt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.error.DponeException;
import io.dpone.publication.protocol.Receipt;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileReceiptStoreTest {
    @TempDir
    Path root;

    static Receipt receipt(String generation) {
        return new Receipt("dpone.clickhouse.cluster-external-full-refresh-receipt.v1", "runtime", "UNVERIFIED",
            "COMMITTED", "run-1", "op-0123456789abcdef01234567", generation, "cluster_external", "external",
            "analytics_cluster_external", "analytics.target_table", "inv-1",
            new Receipt.Artifact("ab".repeat(32), "cd".repeat(32), 1234, 10),
            List.of(new Receipt.Member("m-0123456789abcdef", "00000000-0000-0000-0000-000000000001", generation, 10)),
            "dpone-q", Instant.parse("2026-12-02T10:00:00Z"));
    }

    @Test
    void aReceiptRoundTripsWithSnakeCaseKeysAndIsImmutable() throws Exception {
        FileReceiptStore store = new FileReceiptStore(root);
        assertTrue(store.find("op-0123456789abcdef01234567").isEmpty());
        Receipt r = receipt("g-1");
        store.write(r);
        store.write(r);
        assertEquals(r, store.find(r.operationId()).orElseThrow());
        String text = Files.readString(root.resolve("receipts").resolve(r.operationId() + ".json"));
        assertTrue(text.contains("\"evidence_scope\" : \"runtime\""), text);
        assertTrue(text.contains("\"evidence_status\" : \"UNVERIFIED\""), text);
        assertThrows(DponeException.class, () -> store.write(receipt("g-2")));
        assertEquals(r, new FileReceiptStore(root).find(r.operationId()).orElseThrow());
    }

    @Test
    void anOperationIdIsNeverUsedAsARawPath() {
        assertThrows(IllegalArgumentException.class, () -> new FileReceiptStore(root).find("../x"));
    }
}
