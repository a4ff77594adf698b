package io.dpone.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dpone.format.parquet.ParquetColumn;
import io.dpone.format.parquet.ParquetWriteOptions;
import io.dpone.source.SourceColumn;
import io.dpone.source.types.IntegerType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.junit.jupiter.api.Test;

/**
 * The {@link ChunkFormatContract} for Parquet chunks written with parquet-java's own defaults: a dictionary for every
 * column (with its fallback to plain), min/max and size statistics, page CRCs. The default format writes every column
 * plain and without statistics ({@link ParquetFormat#DEFAULT_OPTIONS}, {@link ParquetFormatTest}); this keeps the
 * dictionary path of every type family, NULLs included, read back by ClickHouse exactly.
 */
@io.dpone.testing.EngineTest
class ParquetDictionaryFormatTest extends ChunkFormatContract {
    private static final int REPEATS = 50;

    @Override
    ChunkFormat format() {
        return new ParquetFormat(ParquetWriteOptions.parquetJavaDefaults());
    }

    /**
     * The contract's 11 rows are mostly distinct values, so parquet-java falls back to plain pages for most columns;
     * here every family's 10 values repeat, so every column is read from dictionary pages, with a NULL in every 11th
     * row, except where parquet-java's V1 pages have no dictionary: BOOLEAN and FIXED_LEN_BYTE_ARRAY (UUID, decimals
     * of more than 18 digits, DateTime64(8..9)), which stay plain (the contract covers them).
     */
    @Test
    void everyTypeFamilyLoadsExactlyFromDictionaryPages() {
        List<SourceColumn> columns = new ArrayList<>();
        columns.add(new SourceColumn("id", "bigint", false, new IntegerType(64, false)));
        for (Family f : FAMILIES) {
            columns.add(new SourceColumn(f.name() + "_n", "test", true, f.type()));
        }
        List<Object[]> rows = new ArrayList<>();
        for (int r = 0; r < ROWS * REPEATS; r++) {
            Object[] row = new Object[columns.size()];
            row[0] = (long) r;
            for (int f = 0; f < FAMILIES.size(); f++) {
                row[1 + f] = r % 11 == 0 ? null : FAMILIES.get(f).values()[r % ROWS];
            }
            rows.add(row);
        }
        ChunkFormat format = format();
        Path file = dir.resolve("dictionary-pages.parquet");
        long hash = write(format, file, columns, rows);
        for (List<String> c : ParquetFormatTest.footerOf(file)) {
            PrimitiveTypeName type = ParquetColumn.of(columns.stream().filter(x -> x.name().equals(c.get(0)))
                .findFirst().orElseThrow()).type().getPrimitiveTypeName();
            boolean dictionary = !c.get(0).equals("id") && type != PrimitiveTypeName.BOOLEAN
                && type != PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
            assertEquals(dictionary, c.get(1).contains("DICTIONARY"), c.toString());
        }
        String table = load(format, "dictionary_pages", columns, file);
        for (int f = 0; f < FAMILIES.size(); f++) {
            Family fam = FAMILIES.get(f);
            List<String> got = column(table, "if(isNull(" + fam.name() + "_n), 'NULL', "
                + String.format(fam.expr(), "assumeNotNull(" + fam.name() + "_n)") + ")");
            for (int r = 0; r < rows.size(); r++) {
                Object v = rows.get(r)[1 + f];
                assertEquals(v == null ? "NULL" : fam.expected().apply(v), got.get(r), fam.name() + " row " + r);
            }
        }
        assertEquals(Long.toUnsignedString(hash), typedHash(table, columns));
        assertEquals(String.valueOf(rows.size()), ch.query("SELECT count() FROM " + table).get(0).get(0));
    }
}
