package io.dpone.cdc.clickhouse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dpone.cdc.CdcEvent;
import io.dpone.cdc.CdcOperation;
import io.dpone.format.ByteBuf;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CdcLogSpoolTest {
    /** The reference: the BigInteger version as 32 little-endian bytes. */
    private static byte[] expected(BigInteger v) {
        byte[] be = v.toByteArray();
        byte[] le = new byte[32];
        for (int i = 0; i < 32 && i < be.length; i++) {
            le[i] = be[be.length - 1 - i];
        }
        return le;
    }

    private static byte[] written(CdcEvent e) {
        ByteBuf b = new ByteBuf(32);
        CdcLogSpool.writeVersion(CdcLogSpool.limbs(e.positionValue().value()), e.sequence(), e.operation().rank(), b);
        assertEquals(32, b.length());
        return Arrays.copyOf(b.array(), b.length());
    }

    private static CdcEvent event(BigInteger position, long sequence, CdcOperation op) {
        return new CdcEvent(op, "0x" + position.toString(16), sequence, "dbo", "t", Map.of("id", 1), Map.of());
    }

    @Test
    void versionBytesEqualTheBigIntegerVersionAcrossTheWholeRange() {
        Random random = new Random(7);
        CdcOperation[] ops = CdcOperation.values();
        for (int i = 0; i < 20_000; i++) {
            // positions of every width up to the 189 bits a UInt256 version allows; sequences up to 2^63 - 1
            BigInteger position = new BigInteger(1 + random.nextInt(189), random);
            long sequence = i % 3 == 0 ? Long.MAX_VALUE - random.nextInt(4) : random.nextLong() & Long.MAX_VALUE;
            CdcEvent e = event(position, sequence, ops[random.nextInt(ops.length)]);
            assertArrayEquals(expected(e.version()), written(e), "position " + position + " sequence " + sequence);
        }
        BigInteger top = BigInteger.ONE.shiftLeft(189).subtract(BigInteger.ONE);
        CdcEvent max = event(top, Long.MAX_VALUE, ops[ops.length - 1]);
        assertArrayEquals(expected(max.version()), written(max));
    }

    @Test
    void positionsBeyondTheVersionRangeAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> CdcLogSpool.limbs(BigInteger.ONE.shiftLeft(189)));
    }

    @Test
    void lowCardinalityTravelsAsPlainStringAndPayloadIsNullable() {
        assertEquals("String", CdcLogSpool.fileType("dpone_cdc_operation", java.util.Map.of()));
        assertEquals("UInt256", CdcLogSpool.fileType("dpone_cdc_version", java.util.Map.of()));
        assertEquals("Nullable(String)", CdcLogSpool.fileType("amount", java.util.Map.of()));
    }
}
