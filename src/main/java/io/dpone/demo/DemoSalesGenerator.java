package io.dpone.demo;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * Creates and fills {@code dbo.sales}, the demo table whose columns exercise every gate: exact decimals at two
 * precisions, floats with full mantissas and -0.0, non-Latin text and emoji, ASCII control characters and
 * backslashes, NULLs in every nullable column, DATE, DATETIME2(7) with 100 ns ticks, UNIQUEIDENTIFIER and BIT.
 * Deterministic for a given seed. The DDL is T-SQL that H2 in MSSQLServer mode also accepts.
 */
public final class DemoSalesGenerator {
    public static final String TABLE = "sales";
    /** The columns after the key, as declared (the CDC emulation's change table repeats them). */
    static final String COLUMNS = "store_id INT NULL, channel_code TINYINT NULL, "
        + "region_code SMALLINT NULL, quantity DECIMAL(18,4) NULL, amount DECIMAL(38,10) NULL, "
        + "unit_price FLOAT NULL, discount REAL NULL, customer_name NVARCHAR(200) NULL, "
        + "note VARCHAR(400) NULL, status VARCHAR(20) NOT NULL, sale_date DATE NULL, "
        + "created_at DATETIME2(7) NULL, row_guid UNIQUEIDENTIFIER NULL, is_returned BIT NULL";
    /** Every column of dbo.sales, in table order. */
    static final String COLUMN_NAMES = "sale_id, store_id, channel_code, region_code, quantity, amount, unit_price, "
        + "discount, customer_name, note, status, sale_date, created_at, row_guid, is_returned";
    private static final List<String> NAMES = List.of("Ана Петрова", "李小龍", "José Álvarez", "Zoë 😀 Smith",
        "محمد علي", "Ελένη", "山田 太郎 🍣", "O'Brien \"Jr\"", "Łukasz Żółć", "नमस्ते 🙏🏽");
    private static final List<String> NOTES = List.of("plain", "tab\there", "line\nbreak", "back\\slash",
        "crlf\r\nend", "quote'single", "\\N not null", "");
    private static final List<String> STATUSES = List.of("new", "paid", "shipped", "returned", "cancelled");
    private static final int NULL_EVERY = 17;

    private DemoSalesGenerator() {
    }

    /** Replaces {@code dbo.sales} with {@code rows} generated rows. */
    public static void seed(Connection c, long rows, long seed) throws SQLException {
        seed(c, rows, seed, done -> { });
    }

    /** As {@link #seed(Connection, long, long)}, telling {@code progress} the rows written after every batch. */
    public static void seed(Connection c, long rows, long seed, java.util.function.LongConsumer progress)
        throws SQLException {
        boolean h2 = c.getMetaData().getURL().startsWith("jdbc:h2:");
        try (Statement st = c.createStatement()) {
            if (h2) {
                st.execute("CREATE SCHEMA IF NOT EXISTS dbo");
            }
            st.execute(h2 ? "DROP TABLE IF EXISTS dbo.sales"
                : "IF OBJECT_ID('dbo.sales', 'U') IS NOT NULL DROP TABLE dbo.sales");
            st.execute("CREATE TABLE dbo.sales (sale_id BIGINT NOT NULL PRIMARY KEY, " + COLUMNS + ")");
        }
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO dbo.sales VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")) {
            for (long id = 1; id <= rows; id++) {
                bindRow(ps, id, new SplittableRandom(seed * 1_000_003L + id));
                ps.addBatch();
                if (id % 2_000 == 0) {
                    ps.executeBatch();
                    progress.accept(id);
                }
            }
            ps.executeBatch();
            progress.accept(rows);
            c.commit();
        } finally {
            c.setAutoCommit(auto);
        }
    }

    static void bindRow(PreparedStatement ps, long id, SplittableRandom r) throws SQLException {
        ps.setLong(1, id);
        set(ps, 2, id, Types.INTEGER, r.nextInt(1, 500));
        set(ps, 3, id, Types.TINYINT, r.nextInt(0, 128)); // H2's TINYINT is signed; SQL Server's is 0..255
        set(ps, 4, id, Types.SMALLINT, r.nextInt(-32768, 32768));
        set(ps, 5, id, Types.DECIMAL, BigDecimal.valueOf(r.nextLong(-99_999_999_999_999L, 99_999_999_999_999L), 4));
        set(ps, 6, id, Types.DECIMAL, new BigDecimal(new BigInteger(120, new java.util.Random(r.nextLong()))
            .subtract(BigInteger.ONE.shiftLeft(119)), 10));
        set(ps, 7, id, Types.DOUBLE, id % 1000 == 3 ? -0.0d : (r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(-8, 12)));
        set(ps, 8, id, Types.REAL, (float) ((r.nextDouble() - 0.3) * 100));
        set(ps, 9, id, Types.NVARCHAR, NAMES.get(r.nextInt(NAMES.size())) + " #" + id);
        set(ps, 10, id, Types.VARCHAR, NOTES.get(r.nextInt(NOTES.size())));
        ps.setString(11, STATUSES.get(r.nextInt(STATUSES.size())));
        set(ps, 12, id, Types.DATE, LocalDate.of(1990, 1, 1).plusDays(r.nextInt(0, 15_000)));
        set(ps, 13, id, Types.TIMESTAMP, LocalDateTime.of(2015, 1, 1, 0, 0)
            .plusSeconds(r.nextLong(0, 400_000_000L)).plusNanos(r.nextLong(0, 10_000_000L) * 100));
        set(ps, 14, id, Types.OTHER, new UUID(r.nextLong(), r.nextLong()));
        set(ps, 15, id, Types.BIT, r.nextBoolean());
    }

    /** Binds {@code value}, or NULL for this row and column: every nullable column gets NULLs. */
    private static void set(PreparedStatement ps, int index, long id, int type, Object value) throws SQLException {
        if ((id + index) % NULL_EVERY == 0) {
            ps.setNull(index, type == Types.OTHER ? Types.CHAR : type);
        } else if (value instanceof UUID u) {
            ps.setString(index, u.toString());
        } else if (value instanceof LocalDate || value instanceof LocalDateTime) {
            ps.setObject(index, value);
        } else {
            ps.setObject(index, value, type);
        }
    }
}
