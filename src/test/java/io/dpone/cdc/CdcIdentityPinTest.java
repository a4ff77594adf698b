package io.dpone.cdc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Event ids, batch ids, unique-key hashes and canonical JSON are persisted in existing CDC logs and checkpoints:
 * these values were computed by the original (Jackson-only) implementation and must never change.
 */
class CdcIdentityPinTest {
    static final StreamIdentity STREAM = new StreamIdentity("orders-cdc", "mssql_cdc", "dbo", "orders",
        "analytics.orders", List.of("order_id"));
    static final StreamIdentity ODD = new StreamIdentity("orders-ct", "mssql_change_tracking", "sales\"x",
        "ordérs\\\n\u0001", "analytics.orders", List.of("region", "order_id"));
    final EventIdentityIdempotency ids = new EventIdentityIdempotency();

    static CdcEvent event(CdcOperation op, String position, long sequence, String schema, String table) {
        return new CdcEvent(op, position, sequence, schema, table, Map.of("order_id", 1, "region", "EU"), Map.of());
    }

    @Test
    void eventIdsAreThoseAlreadyPersisted() {
        assertEquals("5e1768e2aa96376501113f76064fce0f724b7609073c799dea522035db758832", ids.eventId(STREAM,
            event(CdcOperation.insert, "0x0000002A000001F80003", 0, "dbo", "orders")));
        assertEquals("f70df36f7b0c411030ce91c9dbd35d259b4bbedfbb0a74cb63327fddf60503f9", ids.eventId(STREAM,
            event(CdcOperation.update_after, "0x0011", 7, "dbo", "orders")));
        assertEquals("a98c3083bda5fc104fba01db2bf042657218013e3e4e9c26026a96f69c78a485", ids.eventId(STREAM,
            event(CdcOperation.delete, "1042", Long.MAX_VALUE, "dbo", "orders")));
        assertEquals("15aaa4d5583948ab20a0eb2f8f90b0bab1555431296ce2bcbaadbb94e9837dd4", ids.eventId(ODD,
            event(CdcOperation.update, "1042", 3, "sales\"x", "ordérs\\\n\u0001\u2028")),
            "quotes, backslashes, control and non-ASCII characters escape as before");
    }

    @Test
    void batchIdsAreThoseAlreadyPersisted() {
        CdcBatch b = new CdcBatch("0x12", new CdcOffset("mssql_cdc", "0x12", true), List.of(
            new CdcEvent(CdcOperation.insert, "0x10", 1, "dbo", "orders", Map.of("order_id", 1), Map.of()),
            new CdcEvent(CdcOperation.insert, "0x12", 0, "dbo", "orders", Map.of("order_id", 3), Map.of()),
            new CdcEvent(CdcOperation.insert, "0x11", 1, "dbo", "orders", Map.of("order_id", 2), Map.of())));
        assertEquals("e5e3350de0d23c9ac4b073a3ce47009d",
            ids.check(STREAM, b, Optional.of(new CdcOffset("mssql_cdc", "0x10", true))).batchId());
        assertEquals("94a24e76c01872e9ee2e114286e52fa7", ids.check(STREAM, b, Optional.empty()).batchId());
    }

    @Test
    void canonicalJsonAndKeyHashesAreThoseAlreadyPersisted() {
        pin(1, "1", "080a9ed428559ef602668b4c00f114f1a11c3f6b02a435f0bdc154578e4d7f22");
        pin(42L, "42", "b86b1ea11b28136fe5224b9d1e3017b7efb68d4fae0b90c4940e0c0f89b3907a");
        pin((short) 3, "3", "06d033ece6645de592db973644cf7357255f24536ff7b03c3b2ace10736f7636");
        pin("EU", "\"EU\"", "7dd05523c3280b5e1dbc18ecf435da77be2db6ca346ea0d856cc0ad31f3be2eb");
        pin("a\"b\\c\n\u0001é\u2028", "\"a\\\"b\\\\c\\n\\u0001é\u2028\"",
            "51399444c9d12ae917446e98c66edfe757090c40d6c8f3cafeacb7b9552789bd");
        pin(new BigDecimal("19.90"), "19.90", "dc1b7979d03bb1bbfb9952aaca2b7a64892143b5bf17fa2dc546f7a4ca5bd7e8");
        pin(new BigDecimal("1E+3"), "1000", "7cd0293cbae2e0b1605df002902aa71db533aed523261212b4a6d8536c5cea2f");
        pin(new BigInteger("123456789012345678901234567890"), "123456789012345678901234567890",
            "afc9650f996d1e21860004d4e08fc870c7d588a5b64d708a432432d42e7cc15c");
        pin(LocalDateTime.parse("2024-01-01T00:00:00.1234567"), "\"2024-01-01T00:00:00.1234567\"",
            "efc395bcd9f71fd5190b3b89defe4ad627e2d13fa53a59addfcfae5e7e058e40");
        pin(LocalDateTime.parse("2024-01-01T00:00:00"), "\"2024-01-01T00:00:00\"",
            "d0131b2fcb009669c69a79900d45cc7fcab5f30445bcef453773084de03e3da3");
        pin(OffsetDateTime.parse("2024-01-01T00:00:00Z"), "\"2024-01-01T00:00:00Z\"",
            "e19747fa26e41b8a4c99b3d7825650d43747a97724dcd6c4c504549bc028d6a1");
        pin(LocalDate.parse("2024-01-02"), "\"2024-01-02\"",
            "68748934d66032be8ce94f19f92d0f20faf93192f49cb7249c93d722ddb6c901");
        pin(1.5d, "1.5", "f631f85ac97c9aa04448a5cfcd95e45ffb1fff174d43200d70bad6ca6e9178e0");
        pin(true, "true", "1c28f2eb0958c3d15db1f0f0e7f2b8998ca2b8f67ab426a1fbb3d561fe76fad9");
        pin(UUID.fromString("123e4567-e89b-12d3-a456-426614174000"), "\"123e4567-e89b-12d3-a456-426614174000\"",
            "fc71845d0ce907581b873a6745ac0426b850fd1ac2a1f3c5491bb459e63acbe6");
    }

    @Test
    void plainAndMixedValuesWriteTheSameTextAsJackson() {
        assertEquals("\"ordérs\u2028 x/<>\"", CdcHashes.canonicalJson("ordérs\u2028 x/<>"), "no escapes needed");
        assertEquals("[\"a\",\"2024-01-02\",null,[1,19.90]]", CdcHashes.canonicalJson(java.util.Arrays.asList("a",
            LocalDate.parse("2024-01-02"), null, List.of(1, new BigDecimal("19.90")))), "a list with a non-plain element");
        assertEquals("\"2024-01-01T00:00:00.12\"", CdcHashes.canonicalJson(LocalDateTime.parse("2024-01-01T00:00:00.12")),
            "ISO_LOCAL_DATE_TIME, as the JavaTimeModule writes it");
        assertEquals("\"+12024-01-01T23:59:59.000000001\"", CdcHashes.canonicalJson(
            LocalDateTime.parse("+12024-01-01T23:59:59.000000001")));
        assertEquals("[\"a\\tb\",-7,false]", CdcHashes.canonicalJson(List.of("a\tb", -7L, false)));
    }

    @Test
    void idsRememberedFromTheLastCheckAreThoseOfThatStreamOnly() {
        CdcEvent e = event(CdcOperation.insert, "0x0000002A000001F80003", 0, "dbo", "orders");
        ids.check(STREAM, new CdcBatch("0x2A", new CdcOffset("mssql_cdc", "0x2A", true), List.of(e)), Optional.empty());
        assertEquals("5e1768e2aa96376501113f76064fce0f724b7609073c799dea522035db758832", ids.eventId(STREAM, e));
        StreamIdentity ct = new StreamIdentity("orders-cdc", "mssql_change_tracking", "dbo", "orders",
            "analytics.orders", List.of("order_id"));
        assertEquals(new EventIdentityIdempotency().eventId(ct, e), ids.eventId(ct, e), "another stream's backend");
        CdcEvent equalButNew = event(CdcOperation.insert, "0x2A000001F80003", 0, "dbo", "orders");
        assertEquals(ids.eventId(STREAM, e), ids.eventId(STREAM, equalButNew));
    }

    @Test
    void localDateTimesWriteWhatTheIsoFormatterWrites() {
        java.util.Random r = new java.util.Random(42);
        for (int i = 0; i < 20_000; i++) {
            int nano = switch (i % 4) {
                case 0 -> 0;
                case 1 -> r.nextInt(1000) * 1_000_000;
                case 2 -> r.nextInt(1_000_000) * 1000;
                default -> r.nextInt(1_000_000_000);
            };
            LocalDateTime t = LocalDateTime.of(r.nextInt(10_000), 1 + r.nextInt(12), 1 + r.nextInt(28), r.nextInt(24),
                r.nextInt(60), r.nextInt(60), nano);
            assertEquals("\"" + java.time.format.DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(t) + "\"",
                CdcHashes.canonicalJson(t), t::toString);
        }
        assertEquals("\"0007-01-02T03:04:05.000000006\"", CdcHashes.canonicalJson(LocalDateTime.of(7, 1, 2, 3, 4, 5,
            6)));
        assertEquals("\"-0001-01-01T00:00:00\"", CdcHashes.canonicalJson(LocalDateTime.of(-1, 1, 1, 0, 0)));
    }

    private static void pin(Object value, String canonical, String keyHash) {
        assertEquals(canonical, CdcHashes.canonicalJson(value), value.getClass().getSimpleName());
        assertEquals(keyHash, CdcHashes.uniqueKeyHash(List.of("k"), Map.of("k", value)),
            value.getClass().getSimpleName());
    }
}
