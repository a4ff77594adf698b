package io.dpone.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class KeyRangesTest {
    @Test
    void integersCompareAsNumbersNotText() {
        KeyRanges r = KeyRanges.forType("Int64").orElseThrow();
        r.add("-20", "-3", 18); // as text "-3" > "-20" but "-20" < "-3" would be the reverse order
        r.add("9", "100", 92);
        r.add("-2", "8", 11);
        assertEquals(OptionalLong.of(121), r.disjointSum());
        r.add("100", "100", 1);
        assertTrue(r.disjointSum().isEmpty(), "a shared end point overlaps");
    }

    @Test
    void decimalsCompareByValue() {
        KeyRanges r = KeyRanges.forType("Decimal(18, 4)").orElseThrow();
        r.add("1.5", "2", 3);
        r.add("2.0001", "10", 4);
        assertEquals(OptionalLong.of(7), r.disjointSum());
        r.add("9.99", "11", 2);
        assertTrue(r.disjointSum().isEmpty());
    }

    @Test
    void datesCompareAsFixedWidthText() {
        KeyRanges r = KeyRanges.forType("DateTime64(7)").orElseThrow();
        r.add("2026-01-01 00:00:00.0000000", "2026-01-31 23:59:59.9999999", 5);
        r.add("2026-02-01 00:00:00.0000000", "2026-02-02 00:00:00.0000000", 2);
        r.add("1999-12-31 00:00:00.0000000", "1999-12-31 00:00:00.0000000", 0); // an empty batch is ignored
        assertEquals(OptionalLong.of(7), r.disjointSum());
    }

    @ParameterizedTest
    @ValueSource(strings = {"String", "UUID", "Nullable(Int64)", "Float64", "DateTime64(3, 'UTC')", "FixedString(4)"})
    void typesWhoseTextDoesNotOrderLikeClickHouseAreNotTracked(String type) {
        assertTrue(KeyRanges.forType(type).isEmpty(), type);
    }
}
