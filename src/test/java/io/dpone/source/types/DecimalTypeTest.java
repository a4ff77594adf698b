package io.dpone.source.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

class DecimalTypeTest {
    private static Object read(DecimalType type, String literal) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:h2:mem:decimal_type;MODE=MSSQLServer");
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT CAST(" + literal + " AS DECIMAL(38, 6))")) {
            rs.next();
            return type.read(rs, 1);
        }
    }

    @Test
    void keepsValuesThatFitPrecisionAndScaleExactly() throws Exception {
        DecimalType t = new DecimalType(5, 2);
        assertEquals(new BigDecimal("999.99"), read(t, "999.99"));
        assertEquals(new BigDecimal("-999.99"), read(t, "-999.99"));
        assertEquals(new BigDecimal("0.00"), read(t, "0"));
        assertEquals(new BigDecimal("0.01"), read(t, "0.01"));
    }

    @Test
    void refusesOneDigitTooManyOnEitherSide() {
        DecimalType t = new DecimalType(5, 2);
        assertThrows(ValueOutOfRangeException.class, () -> read(t, "1000.00"));
        assertThrows(ValueOutOfRangeException.class, () -> read(t, "-1000.00"));
        assertThrows(ValueOutOfRangeException.class, () -> read(t, "1.005"));
    }

    @Test
    void boundaryOfAWidePrecision() throws Exception {
        DecimalType t = new DecimalType(30, 6);
        assertEquals(new BigDecimal("999999999999999999999999.999999"), read(t, "999999999999999999999999.999999"));
        assertThrows(ValueOutOfRangeException.class, () -> read(t, "1000000000000000000000000"));
    }
}
