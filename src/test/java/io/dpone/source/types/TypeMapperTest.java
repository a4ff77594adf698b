package io.dpone.source.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Types;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Driver metadata (mssql-jdbc and H2 in MSSQLServer mode) to ClickHouse types; unmappable types stay unmapped. */
class TypeMapperTest {
    @ParameterizedTest(name = "{1} ({0}) -> {4}")
    @CsvSource(delimiter = '|', value = {
        "-6|tinyint|3|0|UInt8", "5|smallint|5|0|Int16", "4|int|10|0|Int32", "-5|bigint|19|0|Int64",
        "-7|bit|1|0|Bool", "16|BOOLEAN|1|0|Bool", "3|decimal|18|4|Decimal(18, 4)", "2|numeric|38|10|Decimal(38, 10)",
        "3|money|19|4|Decimal(19, 4)", "3|smallmoney|10|4|Decimal(10, 4)", "7|real|24|0|Float32",
        "8|float|53|0|Float64", "-9|nvarchar|4000|0|String", "12|varchar|8000|0|String", "-16|ntext|0|0|String",
        "1|uniqueidentifier|36|0|UUID", "-2|UUID|16|0|UUID", "91|date|10|0|Date32",
        "93|datetime2|27|7|DateTime64(7, 'UTC')", "93|datetime|23|3|DateTime64(3, 'UTC')",
        "93|smalldatetime|16|0|DateTime64(0, 'UTC')", "-155|datetimeoffset|34|7|DateTime64(7, 'UTC')",
        "-3|varbinary|8000|0|String", "92|time|16|7|Time64(7)", "92|TIME|8|0|Time64(0)", "-154|time|12|3|Time64(3)",
        "-16|xml|0|0|String", "-2|timestamp|8|0|UInt64", "-2|rowversion|8|0|UInt64",
        "-9|Name|50|0|String", "-7|Flag|1|0|Bool", "3|Price|19|4|Decimal(19, 4)"})
    void mapsExactly(int jdbcType, String typeName, int precision, int scale, String clickHouse) {
        assertEquals(clickHouse, TypeMapper.map(jdbcType, typeName, precision, scale).orElseThrow().clickHouseType());
    }

    @ParameterizedTest(name = "{1} is refused")
    @CsvSource(delimiter = '|', value = {"-3|geography", "-3|geometry", "-3|hierarchyid",
        "-150|sql_variant", "-151|SomeClrType", "1111|cursor"})
    void refusesTypesWithoutAnExactMapping(int jdbcType, String typeName) {
        assertTrue(TypeMapper.map(jdbcType, typeName, 0, 0).isEmpty());
    }

    /** SQL Server's {@code timestamp} is binary(8): a rowversion, never a date; H2's TIMESTAMP is a date type. */
    @ParameterizedTest
    @CsvSource({"TIMESTAMP", "timestamp"})
    void h2TimestampTypeNameStillMaps(String name) {
        assertEquals("DateTime64(7, 'UTC')", TypeMapper.map(Types.TIMESTAMP, name, 27, 7).orElseThrow().clickHouseType());
    }
}
