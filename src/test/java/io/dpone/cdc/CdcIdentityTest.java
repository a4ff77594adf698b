package io.dpone.cdc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Positions compare as numbers, versions follow change order, identities and hashes are as documented. */
class CdcIdentityTest {
    static final StreamIdentity STREAM = new StreamIdentity("orders-cdc", "mssql_cdc", "dbo", "orders",
        "analytics.orders", List.of("order_id"));

    static CdcEvent event(CdcOperation op, String position, long sequence, int orderId) {
        return new CdcEvent(op, position, sequence, "dbo", "orders", Map.of("order_id", orderId), Map.of());
    }

    @Test
    void positionsCompareByNumericValueNotText() {
        assertTrue("0xf".compareTo("0x10") > 0, "as text 0xf sorts after 0x10");
        assertTrue(CdcPosition.compare("0xf", "0x10") < 0);
        assertEquals(0, CdcPosition.compare("0x11", "0x0011"));
        assertEquals(0, CdcPosition.compare("0x11", "17"));
        assertTrue(CdcPosition.compare("0x0000002A000001F80003", "0x0000002A000001F80004") < 0);
        assertEquals("0x11", CdcPosition.of("0x0011").canonical());
        assertTrue(CdcPosition.parse("lsn-1").isEmpty());
        assertTrue(CdcPosition.parse("-1").isEmpty());
    }

    @Test
    void versionGrowsWithPositionSequenceAndOperation() {
        List<CdcEvent> ordered = List.of(event(CdcOperation.insert, "0x9", 7, 1),
            event(CdcOperation.delete, "0x10", 1, 1), event(CdcOperation.insert, "0x10", 1, 2),
            event(CdcOperation.update_before, "0x10", 2, 2), event(CdcOperation.update_after, "0x10", 2, 2),
            event(CdcOperation.update, "0x0000002A000001F80003", 0, 2));
        List<CdcEvent> shuffled = new ArrayList<>(ordered);
        java.util.Collections.reverse(shuffled);
        shuffled.sort(CdcEvent.ORDER);
        assertEquals(ordered, shuffled);
        for (int i = 1; i < ordered.size(); i++) {
            assertTrue(ordered.get(i).version().compareTo(ordered.get(i - 1).version()) > 0);
        }
        assertEquals("2361183241434822606858", event(CdcOperation.insert, "0x10", 1, 1).version().toString(),
            "0x10 * 2^67 + 1 * 8 + 2");
    }

    @Test
    void uniqueKeyHashIsSha256OfTheCanonicalValueArray() {
        assertEquals(CdcHashes.sha256Hex("[1]"), CdcHashes.uniqueKeyHash(List.of("order_id"), Map.of("order_id", 1)));
        assertEquals("080a9ed428559ef602668b4c00f114f1a11c3f6b02a435f0bdc154578e4d7f22", CdcHashes.sha256Hex("[1]"));
        assertEquals(CdcHashes.sha256Hex("[\"EU\",1]"), CdcHashes.uniqueKeyHash(List.of("region", "order_id"),
            Map.of("order_id", 1L, "region", "EU")));
        assertEquals(CdcHashes.sha256Hex("[19.90]"), CdcHashes.uniqueKeyHash(List.of("k"),
            Map.of("k", new BigDecimal("19.90"))));
    }

    @Test
    void eventIdentityIgnoresPaddingButNotOperation() {
        EventIdentityIdempotency ids = new EventIdentityIdempotency();
        assertEquals(ids.eventId(STREAM, event(CdcOperation.update, "0x11", 1, 1)),
            ids.eventId(STREAM, event(CdcOperation.update, "0x0011", 1, 1)));
        assertNotEquals(ids.eventId(STREAM, event(CdcOperation.update_before, "0x11", 1, 1)),
            ids.eventId(STREAM, event(CdcOperation.update_after, "0x11", 1, 1)));
    }

    @Test
    void eventsAtOrBelowTheCheckpointAreReplays() {
        CdcBatch batch = new CdcBatch("0x12", new CdcOffset("mssql_cdc", "0x12", true), List.of(
            event(CdcOperation.insert, "0x10", 1, 1), event(CdcOperation.insert, "0x11", 1, 2),
            event(CdcOperation.insert, "0x12", 1, 3)));
        IdempotencyResult r = new EventIdentityIdempotency().check(STREAM, batch,
            Optional.of(new CdcOffset("mssql_cdc", "0x11", true)));
        assertTrue(r.passed());
        assertEquals(2, r.replayed());
        assertEquals(List.of("0x12"), r.toApply().stream().map(CdcEvent::position).toList());
        IdempotencyResult again = new EventIdentityIdempotency().check(STREAM, batch,
            Optional.of(new CdcOffset("mssql_cdc", "0x11", true)));
        assertEquals(r.batchId(), again.batchId(), "batch ids are deterministic");
    }

    @Test
    void aRepeatedIdentityIsADuplicate() {
        CdcBatch batch = new CdcBatch(null, new CdcOffset("mssql_cdc", "0x12", true), List.of(
            event(CdcOperation.insert, "0x10", 1, 1), event(CdcOperation.insert, "0x0010", 1, 1)));
        IdempotencyResult r = new EventIdentityIdempotency().check(STREAM, batch, Optional.empty());
        assertEquals(1, r.duplicates().size());
        assertEquals("changes[1]", r.duplicates().get(0).get("event"));
    }

    @Test
    void anOrderedBatchAndTheSameChangesShuffledGiveOneApplyOrderAndOneBatchId() {
        // a batch in change order skips the map of seen ids and the sort; any other order takes both: same verdict
        List<CdcEvent> ordered = List.of(event(CdcOperation.insert, "0x10", 0, 1),
            event(CdcOperation.update_before, "0x10", 1, 1), event(CdcOperation.update_after, "0x10", 1, 1),
            event(CdcOperation.delete, "0x11", 0, 2), event(CdcOperation.insert, "0x0012", 0, 3));
        List<CdcEvent> shuffled = List.of(ordered.get(3), ordered.get(2), ordered.get(4), ordered.get(0),
            ordered.get(1));
        CdcOffset next = new CdcOffset("mssql_cdc", "0x12", true);
        IdempotencyResult a = new EventIdentityIdempotency().check(STREAM, new CdcBatch("0x12", next, ordered),
            Optional.empty());
        IdempotencyResult b = new EventIdentityIdempotency().check(STREAM, new CdcBatch("0x12", next, shuffled),
            Optional.empty());
        assertTrue(a.passed());
        assertTrue(b.passed());
        assertEquals(ordered, a.toApply());
        assertEquals(ordered, b.toApply());
        assertEquals(a.batchId(), b.batchId());
        // an ordered batch that repeats its last change is not strictly ordered: the repeat is still found
        List<CdcEvent> repeated = new ArrayList<>(ordered);
        repeated.add(event(CdcOperation.insert, "0x12", 0, 3));
        IdempotencyResult c = new EventIdentityIdempotency().check(STREAM, new CdcBatch("0x12", next, repeated),
            Optional.empty());
        assertEquals(1, c.duplicates().size());
        assertEquals("changes[5]", c.duplicates().get(0).get("event"));
        assertEquals("changes[4]", c.duplicates().get(0).get("duplicate_of"));
    }

    @Test
    void aBatchHashedInSlicesGivesEachChangeItsOwnIdAndFindsRepeatsAcrossSlices() {
        // more changes than one slice holds: the ids are hashed by several threads, the verdict is the batch's own
        int n = ParallelSlices.MIN_SLICE * 5;
        List<CdcEvent> changes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            changes.add(event(CdcOperation.insert, "0x" + Integer.toHexString(0x100 + i / 10), i % 10, i));
        }
        CdcOffset next = new CdcOffset("mssql_cdc", "0x" + Integer.toHexString(0x100 + n / 10), true);
        EventIdentityIdempotency service = new EventIdentityIdempotency();
        IdempotencyResult r = service.check(STREAM, new CdcBatch(null, next, changes), Optional.empty());
        assertTrue(r.passed());
        assertEquals(changes, r.toApply());
        EventIdentityIdempotency fresh = new EventIdentityIdempotency(); // no memo: hashes one change at a time
        for (int i = 0; i < n; i += 997) {
            CdcEvent e = changes.get(i);
            assertEquals(fresh.eventId(STREAM, e), service.eventId(STREAM, e), "change " + i);
        }
        // the last change repeats the first one's identity (zero-padded position): found although another slice
        // hashed it
        List<CdcEvent> repeated = new ArrayList<>(changes);
        repeated.add(event(CdcOperation.insert, "0x0100", 0, 0));
        IdempotencyResult d = new EventIdentityIdempotency().check(STREAM, new CdcBatch(null, next, repeated),
            Optional.empty());
        assertEquals(1, d.duplicates().size());
        assertEquals("changes[" + n + "]", d.duplicates().get(0).get("event"));
        assertEquals("changes[0]", d.duplicates().get(0).get("duplicate_of"));
    }
}
