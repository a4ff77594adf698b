package io.dpone.cdc.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dpone.source.types.SqlServerTypeNames;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which retypes the typed CDC log alters in place (a widening) and which stay {@code schema_changed}. */
class CdcLogTypesWideningTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "tinyint | smallint | true", "tinyint | tinyint | true", "smallint | tinyint | false", "int | bigint | true",
        "bigint | int | false",
        "decimal(10,2) | decimal(12,2) | true", "decimal(10,2) | decimal(11,3) | true",
        "decimal(10,2) | decimal(10,3) | false", "decimal(10,2) | decimal(9,2) | false",
        "decimal(10,2) | decimal(12,1) | false",
        "real | float | true", "float | real | false",
        "datetime2(3) | datetime2(7) | true", "datetime2(7) | datetime2(3) | false",
        "datetime2(3) | datetimeoffset(7) | false", "time(3) | time(7) | true", "time(7) | time(0) | false",
        "int | decimal(18,0) | false", "int | nvarchar(20) | false", "date | datetime2(7) | false",
    })
    void aRetypeIsAlteredOnlyWhenTheNewTypeHoldsEveryValueOfTheRecordedOne(String from, String to, boolean widens) {
        assertEquals(widens, CdcLogTypes.widens(SqlServerTypeNames.parse(from).orElseThrow(),
            SqlServerTypeNames.parse(to).orElseThrow()), from + " -> " + to);
    }
}
