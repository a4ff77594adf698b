package io.dpone.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dpone.source.types.DecimalType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A decimal's RowBinary bytes are its unscaled integer, little-endian two's complement in the column's storage width,
 * whichever way the encoder reads the unscaled value (as a long for up to 18 digits, else through a BigInteger).
 * The expected bytes here come from {@link BigInteger#toByteArray()} of the unscaled value, independently.
 */
class RowBinaryEncoderDecimalTest {
    private static final List<String> UNSCALED = List.of("0", "1", "-1", "9", "-10", "127", "-128", "255", "-256",
        "2147483647", "-2147483648", "999999999", "-999999999", "4294967295", "-4294967296",
        "999999999999999999", "-999999999999999999", "1000000000000000000", "-1000000000000000000",
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
        "18446744073709551615", "-18446744073709551616", "99999999999999999999999999999999999999",
        "-99999999999999999999999999999999999999", "170141183460469231731687303715884105727",
        "-170141183460469231731687303715884105728", "9".repeat(76), "-" + "9".repeat(76));

    @Test
    void everyWidthHoldsTheUnscaledIntegerInTwosComplement() {
        for (int precision : new int[] {9, 18, 19, 38, 39, 76}) {
            for (int scale : new int[] {0, 4, precision}) {
                DecimalType type = new DecimalType(precision, scale);
                for (String digits : UNSCALED) {
                    BigInteger unscaled = new BigInteger(digits);
                    if (unscaled.abs().toString().length() > precision) {
                        continue;
                    }
                    for (BigDecimal v : forms(unscaled, scale)) {
                        assertArrayEquals(expected(unscaled, type.storageBytes()), encode(type, v),
                            "Decimal(" + precision + ", " + scale + ") " + v);
                    }
                }
            }
        }
    }

    @Test
    void aValueOutsideAnIntegerWidthIsRefusedNotWrapped() {
        assertThrows(ArithmeticException.class, () -> encode(new DecimalType(9, 0), new BigDecimal("2147483648")));
        assertThrows(ArithmeticException.class,
            () -> encode(new DecimalType(18, 0), new BigDecimal("9223372036854775808")));
    }

    /** The same number built three ways: BigDecimal keeps small values compact or inflated depending on origin. */
    private static List<BigDecimal> forms(BigInteger unscaled, int scale) {
        return List.of(new BigDecimal(unscaled, scale), new BigDecimal(new BigDecimal(unscaled, scale).toPlainString()),
            new BigDecimal(unscaled.multiply(BigInteger.TEN), scale + 1).setScale(scale));
    }

    private static byte[] encode(DecimalType type, BigDecimal v) {
        ByteBuf out = new ByteBuf(16);
        RowBinaryEncoder.writeValue(type, v, out);
        return Arrays.copyOf(out.array(), out.length());
    }

    private static byte[] expected(BigInteger unscaled, int width) {
        byte[] be = unscaled.toByteArray();
        byte[] le = new byte[width];
        Arrays.fill(le, (byte) (unscaled.signum() < 0 ? 0xFF : 0));
        for (int i = 0; i < Math.min(width, be.length); i++) {
            le[i] = be[be.length - 1 - i];
        }
        return le;
    }
}
