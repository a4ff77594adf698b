package io.dpone.cdc.clickhouse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dpone.format.ByteBuf;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CdcLogSpoolTest {
    private static byte[] uint256(BigInteger v) {
        ByteBuf b = new ByteBuf(32);
        CdcLogSpool.writeUInt256(v, b);
        return Arrays.copyOf(b.array(), b.length());
    }

    @Test
    void uint256IsThirtyTwoLittleEndianBytes() {
        byte[] small = new byte[32];
        small[0] = 0x02;
        small[1] = 0x01;
        assertArrayEquals(small, uint256(BigInteger.valueOf(258)));

        // the top bit set: toByteArray gives 33 bytes with a leading zero, which must not shift the value
        byte[] top = new byte[32];
        top[0] = 1;
        top[31] = (byte) 0x80;
        assertArrayEquals(top, uint256(BigInteger.ONE.shiftLeft(255).add(BigInteger.ONE)));
        assertEquals(32, uint256(BigInteger.ZERO).length);
    }

    @Test
    void valuesOutsideUInt256AreRefused() {
        assertThrows(IllegalArgumentException.class, () -> uint256(BigInteger.ONE.shiftLeft(256)));
        assertThrows(IllegalArgumentException.class, () -> uint256(BigInteger.ONE.negate()));
    }

    @Test
    void lowCardinalityTravelsAsPlainStringAndPayloadIsNullable() {
        Map<String, String> log = ClickHouseCdcSinkApplier.LOG_COLUMNS;
        assertEquals("String", CdcLogSpool.fileType("dpone_cdc_operation", log));
        assertEquals("UInt256", CdcLogSpool.fileType("dpone_cdc_version", log));
        assertEquals("Nullable(String)", CdcLogSpool.fileType("amount", log));
    }
}
