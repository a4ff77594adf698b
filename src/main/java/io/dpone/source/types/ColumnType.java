package io.dpone.source.types;

import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * One SQL Server type family and its exact ClickHouse counterpart. {@link #read} returns the canonical Java value
 * the encoders understand, or {@code null} for SQL NULL, and throws {@link ValueOutOfRangeException} rather than
 * round, truncate or clamp anything.
 *
 * <p>Canonical values: {@code Long} (integers), {@code Boolean}, {@code BigDecimal} at exactly the declared scale,
 * {@code Double}, {@code Float}, {@code String}, {@code byte[]}, {@code LocalDate}, {@code LocalDateTime} (UTC),
 * {@code UUID}.
 */
public sealed interface ColumnType
    permits IntegerType, BoolType, DecimalType, FloatType, StringType, BinaryType, DateType, TimestampType, UuidType {

    /** The ClickHouse type, without the {@code Nullable(...)} wrapper. */
    String clickHouseType();

    /** Reads column {@code index} of the current row. */
    Object read(ResultSet rs, int index) throws SQLException;
}
