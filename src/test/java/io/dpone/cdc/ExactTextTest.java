package io.dpone.cdc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.error.Blocker;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Issue 37: CDC text is exact or refused; unique-key hashes are computed on exact bytes. */
class ExactTextTest {
    @Test
    void loneSurrogatesAreFoundAnywhereAndPairsAreExact() {
        assertTrue(ExactText.exact("a\ud83d\ude00b"));
        assertTrue(ExactText.exact(""));
        for (String s : List.of("a\ud800b", "\udc00", "x\ud83d", "\ude00\ud83d", "\ud800\ud800\udc00")) {
            assertFalse(ExactText.exact(s), s);
        }
        assertEquals("a\\ud800b", ExactText.visible("a\ud800b"));
        assertEquals("a\ud83d\ude00\\udc00", ExactText.visible("a\ud83d\ude00\udc00"));
        CdcEvent nested = new CdcEvent(CdcOperation.insert, "0x10", 1, "dbo", "orders",
            Map.of("order_id", 1, "doc", Map.of("k", List.of("ok", "bad\udfff"))), Map.of());
        Blocker b = ExactText.firstLoneSurrogate(CdcIdentityTest.STREAM, List.of(nested));
        assertEquals(CdcBlockers.VALUE_OUT_OF_RANGE, b.code());
        assertEquals("changes[0].data.doc", b.subject());
        CdcEvent meta = new CdcEvent(CdcOperation.insert, "0x10", 1, "dbo", "orders", Map.of("order_id", 1),
            Map.of("backend", "mssql_cdc", "note", "x\udbff"));
        assertEquals("changes[0].metadata.note", ExactText.firstLoneSurrogate(CdcIdentityTest.STREAM,
            List.of(meta)).subject());
        assertNull(ExactText.firstLoneSurrogate(CdcIdentityTest.STREAM, List.of(CdcIdentityTest.event(
            CdcOperation.insert, "0x10", 1, 1))));
    }

    @Test
    void twoDistinctKeysNeverShareAUniqueKeyHash() {
        String replaced = CdcHashes.uniqueKeyHash(List.of("k"), Map.of("k", "a?b"));
        assertThrows(IllegalArgumentException.class, () -> CdcHashes.uniqueKeyHash(List.of("k"), Map.of("k", "a\ud800b")));
        assertEquals(replaced, CdcHashes.uniqueKeyHash(List.of("k"), Map.of("k", "a?b")));
        assertFalse(replaced.equals(CdcHashes.uniqueKeyHash(List.of("k"), Map.of("k", "a\ud83d\ude00b"))));
    }

    @Test
    void theBatchPolicyRefusesALoneSurrogateBeforeApply() {
        CdcEvent e = new CdcEvent(CdcOperation.insert, "0x10", 1, "dbo", "orders", Map.of("order_id", "a\ud800b"),
            Map.of("backend", "mssql_cdc"));
        CdcBatch batch = new CdcBatch(null, new CdcOffset("mssql_cdc", "0x10", true), List.of(e), List.of());
        IdempotencyResult r = new EventIdentityIdempotency().check(CdcIdentityTest.STREAM, batch, Optional.empty());
        List<Blocker> blockers = CdcBatchPolicy.check(CdcIdentityTest.STREAM, batch, Optional.empty(), r);
        assertEquals(List.of(CdcBlockers.VALUE_OUT_OF_RANGE), blockers.stream().map(Blocker::code).toList());
        assertEquals("changes[0].data.order_id", blockers.get(0).subject());
    }
}
