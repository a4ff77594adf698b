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
 * {@code UUID}, {@code LocalTime} (time of day), and {@code Long} holding an unsigned rowversion.
 */
public sealed interface ColumnType
    permits IntegerType, BoolType, DecimalType, FloatType, StringType, BinaryType, DateType, TimestampType, UuidType,
        TimeType, RowVersionType {

    /** The ClickHouse type, without the {@code Nullable(...)} wrapper. */
    String clickHouseType();

    /** Reads column {@code index} of the current row. */
    Object read(ResultSet rs, int index) throws SQLException;

    /**
     * The canonical value of {@code value} read elsewhere (a change event's payload: the canonical value itself, or
     * its JSON form: integers and decimals as numbers, text, dates and timestamps as ISO text, binary as base64),
     * with the same checks as {@link #read}; {@code null} stays {@code null}. A value of another kind, or one the
     * type cannot hold exactly, throws {@link ValueOutOfRangeException}: nothing is rounded or cast silently.
     */
    Object coerce(Object value);
}
