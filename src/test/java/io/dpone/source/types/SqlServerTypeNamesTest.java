package io.dpone.source.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** SQL Server type names map to the full refresh's families, and a change's JSON values are coerced exactly. */
class SqlServerTypeNamesTest {
    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "tinyint;UInt8", "smallint;Int16", "INT;Int32", "bigint;Int64", "bit;Bool",
        "decimal(18, 2);Decimal(18, 2)", "numeric(38,0);Decimal(38, 0)", "money;Decimal(19, 4)",
        "smallmoney;Decimal(10, 4)", "real;Float32", "float;Float64", "float(24);Float32",
        "nvarchar(max);String", "varchar(20);String", "varbinary(max);String", "date;Date32",
        "datetime2(7);DateTime64(7, 'UTC')", "datetime2(3);DateTime64(3, 'UTC')", "datetime;DateTime64(3, 'UTC')",
        "smalldatetime;DateTime64(0, 'UTC')", "datetimeoffset(7);DateTime64(7, 'UTC')",
        "uniqueidentifier;UUID", "time(7);Time64(7)", "time;Time64(7)", "time(0);Time64(0)", "rowversion;UInt64",
        "timestamp;UInt64", "xml;String"})
    void namesMapToTheFullRefreshTypesAndBack(String name, String clickHouse) {
        ColumnType t = SqlServerTypeNames.parse(name).orElseThrow();
        assertEquals(clickHouse, t.clickHouseType());
        assertEquals(Optional.of(t), SqlServerTypeNames.parse(SqlServerTypeNames.name(t)));
    }

    @Test
    void unknownAndImpossibleTypesAreEmpty() {
        for (String bad : List.of("geography", "hierarchyid", "sql_variant", "time(8)", "decimal(5,7)", "datetime2(12)", "int(", "", "in t",
            "decimal(0,0)")) {
            assertTrue(SqlServerTypeNames.parse(bad).isEmpty(), bad);
        }
    }

    @Test
    void jsonValuesAreCoercedExactlyOrRefused() {
        ColumnType tiny = SqlServerTypeNames.parse("tinyint").orElseThrow();
        assertEquals(255L, tiny.coerce(new BigInteger("255")));
        assertThrows(ValueOutOfRangeException.class, () -> tiny.coerce(256L));
        assertThrows(ValueOutOfRangeException.class, () -> tiny.coerce(-1L));
        ColumnType small = SqlServerTypeNames.parse("smallint").orElseThrow();
        assertThrows(ValueOutOfRangeException.class, () -> small.coerce(32768L));
        assertThrows(ValueOutOfRangeException.class, () -> small.coerce(new BigDecimal("1.5")));
        assertThrows(ValueOutOfRangeException.class, () -> small.coerce("7"));
        ColumnType dec = SqlServerTypeNames.parse("decimal(5,2)").orElseThrow();
        assertEquals(new BigDecimal("19.90"), dec.coerce(new BigDecimal("19.9")));
        assertThrows(ValueOutOfRangeException.class, () -> dec.coerce(new BigDecimal("19.999")));
        assertThrows(ValueOutOfRangeException.class, () -> dec.coerce(new BigDecimal("1000.00")));
        assertThrows(ValueOutOfRangeException.class, () -> dec.coerce(19.9d));
        ColumnType f64 = SqlServerTypeNames.parse("float").orElseThrow();
        assertEquals(Double.doubleToRawLongBits(0.1d),
            Double.doubleToRawLongBits((Double) f64.coerce(new BigDecimal("0.1"))));
        assertThrows(ValueOutOfRangeException.class, () -> f64.coerce(new BigDecimal("1e400")));
        ColumnType bit = SqlServerTypeNames.parse("bit").orElseThrow();
        assertEquals(true, bit.coerce(1L));
        assertThrows(ValueOutOfRangeException.class, () -> bit.coerce(2L));
        ColumnType ts = SqlServerTypeNames.parse("datetime2(3)").orElseThrow();
        assertEquals(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_000_000), ts.coerce("2024-01-02T03:04:05.123"));
        assertThrows(ValueOutOfRangeException.class, () -> ts.coerce("2024-01-02T03:04:05.1234"));
        assertThrows(ValueOutOfRangeException.class, () -> ts.coerce("1899-12-31T23:59:59"));
        ColumnType off = SqlServerTypeNames.parse("datetimeoffset(0)").orElseThrow();
        assertEquals(LocalDateTime.of(2024, 1, 2, 1, 0), off.coerce("2024-01-02T03:00:00+02:00"));
        ColumnType date = SqlServerTypeNames.parse("date").orElseThrow();
        assertEquals(LocalDate.of(2024, 2, 29), date.coerce("2024-02-29"));
        assertThrows(ValueOutOfRangeException.class, () -> date.coerce("2023-02-29"));
        ColumnType uuid = SqlServerTypeNames.parse("uniqueidentifier").orElseThrow();
        assertEquals(UUID.fromString("6f9619ff-8b86-d011-b42d-00c04fc964ff"),
            uuid.coerce("6F9619FF-8B86-D011-B42D-00C04FC964FF"));
        assertThrows(ValueOutOfRangeException.class, () -> uuid.coerce("1-1-1-1-1"));
        ColumnType bin = SqlServerTypeNames.parse("varbinary(max)").orElseThrow();
        assertEquals("AQID", java.util.Base64.getEncoder().encodeToString((byte[]) bin.coerce("AQID")));
        assertThrows(ValueOutOfRangeException.class, () -> bin.coerce("not base64!"));
        ColumnType text = SqlServerTypeNames.parse("nvarchar(20)").orElseThrow();
        assertThrows(ValueOutOfRangeException.class, () -> text.coerce(12L));
        assertEquals(null, text.coerce(null));
    }
}
