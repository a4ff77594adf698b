package io.dpone.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.dpone.format.ByteBuf;
import io.dpone.format.RowBinaryEncoder;
import io.dpone.format.RowBinaryFormat;
import io.dpone.quality.ColumnDigests;
import io.dpone.quality.TargetStats;
import io.dpone.quality.TypedRowHasher;
import io.dpone.source.SourceColumn;
import io.dpone.source.types.BinaryType;
import io.dpone.source.types.BoolType;
import io.dpone.source.types.DateType;
import io.dpone.source.types.DecimalType;
import io.dpone.source.types.FloatType;
import io.dpone.source.types.IntegerType;
import io.dpone.source.types.RowVersionType;
import io.dpone.source.types.StringType;
import io.dpone.source.types.TimeType;
import io.dpone.source.types.TimestampType;
import io.dpone.source.types.UuidType;
import io.dpone.testing.TestEngines;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins the typed hash's two halves to each other on the real engine, for every type the mapping produces, nullable
 * and not: the rows are encoded by the production encoder, hashed by {@link TypedRowHasher} and {@link ColumnDigests},
 * loaded as RowBinary, and read back by {@link TableStatsReader}; the row hash sum, every column's hash sum and the
 * distinct counts must be equal. Edge values: NULLs, extremes, -0.0 and NaN, empty and long strings (two- and
 * three-byte length prefixes), a 4-byte emoji, negative decimals, dates before 1970, 100 ns ticks.
 */
@io.dpone.testing.EngineTest
class TypedHashEngineTest {
    private static final List<SourceColumn> COLUMNS = List.of(
        new SourceColumn("id", "bigint", false, new IntegerType(64, false)),
        new SourceColumn("tiny", "tinyint", true, new IntegerType(8, true)),
        new SourceColumn("small", "smallint", true, new IntegerType(16, false)),
        new SourceColumn("num", "int", false, new IntegerType(32, false)),
        new SourceColumn("d9", "decimal", true, new DecimalType(9, 2)),
        new SourceColumn("d18", "decimal", true, new DecimalType(18, 4)),
        new SourceColumn("d38", "decimal", true, new DecimalType(38, 10)),
        new SourceColumn("f64", "float", true, new FloatType(64)),
        new SourceColumn("f32", "real", false, new FloatType(32)),
        new SourceColumn("txt", "nvarchar", true, new StringType()),
        new SourceColumn("code", "varchar", false, new StringType()),
        new SourceColumn("bin", "varbinary", true, new BinaryType()),
        new SourceColumn("blob", "varbinary", false, new BinaryType()),
        new SourceColumn("dpone_row_hash", "int", true, new IntegerType(32, false)), // the reader's alias must dodge it
        new SourceColumn("day", "date", true, new DateType()),
        new SourceColumn("ts", "datetime2", true, new TimestampType(7, false)),
        new SourceColumn("ts3", "datetime", false, new TimestampType(3, false)),
        new SourceColumn("guid", "uniqueidentifier", true, new UuidType()),
        new SourceColumn("flag", "bit", true, new BoolType()),
        new SourceColumn("tod", "time", true, new TimeType(7)),
        new SourceColumn("rv", "timestamp", false, new RowVersionType()));
    private static final List<String> NAMES = COLUMNS.stream().map(SourceColumn::name).toList();
    private static final List<String> HASHED = List.of("d9", "d38", "f64", "f32", "txt", "bin", "flag", "tod", "rv");
    private static final List<String> DISTINCT = List.of("code", "txt", "flag", "tod", "rv");

    @TempDir
    Path dir;
    private ClickHouseEndpoint ch;
    private String db;

    @BeforeEach
    void open() {
        ch = TestEngines.clickhouse();
        db = TestEngines.newAtomicDatabase(ch, "typedhash");
        String ddl = COLUMNS.stream().map(c -> ClickHouseSql.id(c.name()) + " " + c.clickHouseType())
            .collect(Collectors.joining(", "));
        ch.execute("CREATE TABLE " + ClickHouseSql.table(db, "t") + " (" + ddl + ", " + MetadataColumns.ddl()
            + ") ENGINE = MergeTree ORDER BY (id)");
    }

    @AfterEach
    void close() {
        ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        ch.close();
    }

    private static List<Object[]> rows() {
        List<Object[]> rows = new ArrayList<>();
        rows.add(new Object[] {1L, null, null, 0L, null, null, null, null, 0.0f, null, "", null, new byte[] {1}, 5L, null, null,
            LocalDateTime.of(1900, 1, 1, 0, 0), null, null, null, 0L});
        rows.add(new Object[] {Long.MIN_VALUE, 255L, (long) Short.MIN_VALUE, (long) Integer.MAX_VALUE,
            new BigDecimal("-9999999.99"), new BigDecimal("99999999999999.9999"),
            new BigDecimal("-9999999999999999999999999999.9999999999"), -0.0, Float.NaN, "x".repeat(200), "a",
            new byte[0], new byte[0], null, LocalDate.of(1900, 1, 1), LocalDateTime.of(2299, 12, 31, 23, 59, 59, 999_999_900),
            LocalDateTime.of(1969, 12, 31, 23, 59, 59, 997_000_000),
            UUID.fromString("61f0c404-5cb3-11e7-907b-a6006ad3dba0"), true, LocalTime.of(23, 59, 59, 999_999_900), -1L});
        rows.add(new Object[] {Long.MAX_VALUE, 0L, (long) Short.MAX_VALUE, (long) Integer.MIN_VALUE,
            new BigDecimal("0.01"), new BigDecimal("-0.0001"), new BigDecimal("0E-10"), Double.MIN_VALUE,
            Float.MAX_VALUE, "caf\u00e9 \uD83D\uDE00 \u4e2d\u6587", "a", new byte[] {0, (byte) 0xFF, 10},
            new byte[300], -7L, LocalDate.of(1969, 7, 20), LocalDateTime.of(1970, 1, 1, 0, 0, 0, 100),
            LocalDateTime.of(2026, 12, 3, 6, 0, 0, 123_000_000), new UUID(0, 0), false, LocalTime.MIDNIGHT, Long.MIN_VALUE});
        rows.add(new Object[] {42L, 7L, -1L, -1L, new BigDecimal("1.00"), new BigDecimal("1.0000"),
            new BigDecimal("1.0000000000"), 1.0, 1.0f, "\u00e9".repeat(9000), "b", "bytes".getBytes(),
            new byte[] {9}, 0L, LocalDate.of(2299, 12, 31), LocalDateTime.of(2000, 2, 29, 12, 0), LocalDateTime.of(2000, 2, 29, 12, 0),
            UUID.randomUUID(), null, LocalTime.of(12, 0, 0, 100), 0x0102030405060708L});
        rows.add(new Object[] {43L, 7L, -1L, -1L, new BigDecimal("1.00"), null, new BigDecimal("1.0000000000"),
            1.0, 1.0f, "\u00e9".repeat(9000), "b", "bytes".getBytes(), new byte[] {9}, 0L, null,
            null, LocalDateTime.of(2000, 2, 29, 12, 0), null, true, LocalTime.of(12, 0, 0, 100), 1L});
        return rows;
    }

    @Test
    void sourceAndTargetHashesAgreeForEveryMappedType() throws Exception {
        RowBinaryEncoder encoder = new RowBinaryEncoder(COLUMNS);
        TypedRowHasher hasher = new TypedRowHasher(COLUMNS);
        ColumnDigests digests = new ColumnDigests(NAMES, HASHED, DISTINCT);
        ByteBuf buf = new ByteBuf(256);
        int[] offsets = new int[COLUMNS.size() + 1];
        List<Long> rowHashes = new ArrayList<>();
        Path file = dir.resolve("rows.rowbinary");
        try (OutputStream out = Files.newOutputStream(file)) {
            for (Object[] row : rows()) {
                buf.reset();
                encoder.encode(row, buf, offsets);
                rowHashes.add(hasher.hash(buf.array(), offsets));
                digests.add(hasher.valueHashes());
                buf.writeTo(out);
            }
        }
        RowBinaryFormat format = new RowBinaryFormat();
        ch.insertFile(new ClickHouseEndpoint.InsertFile(ClickHouseSql.table(db, "t"),
            ClickHouseSql.idList(NAMES) + ", " + ClickHouseSql.idList(MetadataColumns.NAMES),
            ClickHouseSql.idList(NAMES) + ", " + MetadataColumns.values("run-1", "load-1",
                Instant.parse("2026-12-03T00:00:00Z")), file, format.clickHouseFormat(), format.structure(COLUMNS),
            format.insertSettings()));

        TargetStats target = TableStatsReader.read(ch, db, "t", NAMES, HASHED, "run-1", 1, DISTINCT);
        assertEquals(rows().size(), target.rows());
        for (int modulo : new int[] {1, 2, 3}) { // full, and sampled on the row hash on both sides
            long sum = 0;
            long hashed = 0;
            for (long h : rowHashes) {
                if (modulo <= 1 || Long.remainderUnsigned(h, modulo) == 0) {
                    sum += h;
                    hashed++;
                }
            }
            TargetStats sampled = TableStatsReader.read(ch, db, "t", NAMES, HASHED, "run-1", modulo, List.of());
            assertEquals(Long.toUnsignedString(sum), Long.toUnsignedString(sampled.typedHash()), "modulo " + modulo);
            assertEquals(hashed, sampled.hashedRows(), "modulo " + modulo);
        }
        assertEquals(digests.columnHashes(), target.columnHashes(), "per-column hash sums");
        assertEquals(digests.distinctCounts(), target.distinctCounts());
        assertEquals(Map.of("code", 3L, "txt", 4L, "flag", 3L, "tod", 4L, "rv", 5L), target.distinctCounts());
    }

    @Test
    void oneFlippedBitInAStoredValueChangesTheTargetHash() {
        ch.execute("INSERT INTO " + ClickHouseSql.table(db, "t") + " (id, num, f32, code, ts3, "
            + ClickHouseSql.idList(MetadataColumns.NAMES) + ") VALUES (1, 2, 1.5, 'a', '2020-01-01 00:00:00', "
            + MetadataColumns.values("run-1", "load-1", Instant.parse("2026-12-03T00:00:00Z")) + ")");
        TargetStats before = TableStatsReader.read(ch, db, "t", NAMES, HASHED, "run-1", 1, List.of());
        // 1.5f with its lowest mantissa bit set: one ulp away
        ch.execute("ALTER TABLE " + ClickHouseSql.table(db, "t") + " UPDATE f32 = reinterpretAsFloat32("
            + "bitOr(reinterpretAsUInt32(f32), 1)) WHERE 1 SETTINGS mutations_sync = 2");
        TargetStats after = TableStatsReader.read(ch, db, "t", NAMES, HASHED, "run-1", 1, List.of());
        assertNotEquals(before.typedHash(), after.typedHash());
        assertNotEquals(before.columnHashes().get("f32"), after.columnHashes().get("f32"));
        assertEquals(before.columnHashes().get("d38"), after.columnHashes().get("d38"));
    }
}
