package io.dpone.testing.mssql.engine;

import java.io.IOException;
import java.util.List;

/**
 * Where a session writes what a request produces; the wire implements it as a TDS token stream. Per statement: a
 * result set is {@link #columns} then {@link #row}s then {@link #done}; a statement without rows is one
 * {@link #done}. Row values are in the Java form of the column's {@link SqlType.Kind}: {@link Number} for the integer
 * kinds, {@link Boolean} for {@code bit}, {@link java.math.BigDecimal} for {@code decimal}/{@code numeric}/money,
 * {@link Float}/{@link Double} for {@code real}/{@code float}, {@link String} for character kinds, {@code byte[]} for
 * binary kinds, {@link java.time.LocalDate}, {@link java.time.LocalTime}, {@link java.time.LocalDateTime} (for
 * {@code datetime2}, {@code datetime}, {@code smalldatetime}), {@link java.time.OffsetDateTime} and
 * {@link java.util.UUID}; null for NULL.
 */
public interface Results {
    void columns(List<ResultColumn> columns) throws IOException;

    void row(Object[] values) throws IOException;

    /** The end of one statement; {@code count} is its row count (rows returned or affected), or -1 for none. */
    void done(long count) throws IOException;

    /** An informational message (an INFO token, e.g. from PRINT). */
    void info(int number, String message) throws IOException;

    /** True once the client sent an attention (cancel): stop producing rows and return. */
    boolean cancelled();
}
