package io.dpone.format;

import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.source.SourceColumn;
import io.dpone.source.types.ColumnType;
import io.dpone.source.types.FloatType;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * ClickHouse {@code TabSeparated} chunks: one row per line, values separated by tabs, NULL as {@code \N}, text and
 * binary strings as raw bytes with ClickHouse's escapes (so a value that reads {@code \N} is written {@code \\N}).
 *
 * <p>Floats are the one family ClickHouse's input formats do not parse exactly: the TSV reader (chDB 26.5) uses its
 * fast float parser whatever {@code precise_float_parsing} says, which is off by one ulp for about a quarter of
 * random doubles and flushes subnormals such as {@code 4.9E-324} to zero. So float columns travel as their shortest
 * round-trip text in a {@code String} file column ({@link #structure}) and are converted by {@code toFloat64} /
 * {@code toFloat32} ({@link #readExpression}), which honour {@code precise_float_parsing = 1}: the loader must append
 * {@link #INSERT_SETTINGS} to the insert.
 */
public final class TabSeparatedFormat implements ChunkFormat {
    /**
     * Settings the insert of a TabSeparated chunk needs for an exact load. {@code precise_float_parsing} makes the
     * float conversion exact; without {@code input_format_tsv_detect_header = 0} ClickHouse silently drops a first
     * row whose values equal the column names; the rest pin the parsing rules this writer relies on against
     * profile defaults.
     */
    public static final String INSERT_SETTINGS = "precise_float_parsing = 1, input_format_tsv_detect_header = 0, "
        + "input_format_null_as_default = 0, input_format_tsv_empty_as_default = 0, "
        + "input_format_tsv_crlf_end_of_line = 0, input_format_allow_errors_num = 0, "
        + "input_format_allow_errors_ratio = 0, format_tsv_null_representation = '\\\\N', "
        + "date_time_input_format = 'basic'";

    private static final int BUFFER = 1 << 16;

    @Override
    public String clickHouseFormat() {
        return "TabSeparated";
    }

    @Override
    public String extension() {
        return "tsv";
    }

    @Override
    public ChunkWriter open(Path file, List<SourceColumn> columns) {
        try {
            return new Writer(new BufferedOutputStream(io.dpone.connect.PrivateFiles.replace(file), BUFFER), columns);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@link #INSERT_SETTINGS}: the insert that reads a TabSeparated chunk is exact only with them. */
    @Override
    public String insertSettings() {
        return INSERT_SETTINGS;
    }

    /** Float columns are read as text and converted exactly; every other column is read as its target type. */
    @Override
    public String readExpression(SourceColumn column) {
        String id = ClickHouseSql.id(column.name());
        return column.type() instanceof FloatType f ? "toFloat" + f.bits() + "(" + id + ")" : id;
    }

    @Override
    public String structure(List<SourceColumn> columns) {
        return columns.stream().map(c -> ClickHouseSql.id(c.name()) + " " + fileType(c))
            .collect(Collectors.joining(", "));
    }

    private static String fileType(SourceColumn c) {
        if (c.type() instanceof FloatType) {
            return c.nullable() ? "Nullable(String)" : "String";
        }
        return c.clickHouseType();
    }

    /** Encodes rows into a reused line buffer, then hands whole lines to the buffered file stream. */
    private static final class Writer implements ChunkWriter {
        private final OutputStream out;
        private final ColumnType[] types;
        private final boolean[] nullable;
        private final ByteBuf line = new ByteBuf(4096);
        private long bytes;
        private boolean closed;

        Writer(OutputStream out, List<SourceColumn> columns) {
            this.out = out;
            types = columns.stream().map(SourceColumn::type).toArray(ColumnType[]::new);
            nullable = new boolean[columns.size()];
            for (int i = 0; i < nullable.length; i++) {
                nullable[i] = columns.get(i).nullable();
            }
        }

        @Override
        public void write(Object[] row, ByteBuf rowBinary) {
            if (closed) {
                throw new IllegalStateException("chunk writer is closed");
            }
            if (row.length != types.length) {
                throw new IllegalArgumentException("row has " + row.length + " values for " + types.length + " columns");
            }
            ByteBuf b = line;
            b.reset();
            for (int i = 0; i < types.length; i++) {
                if (i > 0) {
                    b.writeByte('\t');
                }
                Object v = row[i];
                if (v == null) {
                    if (!nullable[i]) {
                        throw new IllegalStateException("NULL in a non-nullable column");
                    }
                    b.writeByte('\\');
                    b.writeByte('N');
                } else {
                    TsvText.value(types[i], v, b);
                }
            }
            b.writeByte('\n');
            try {
                b.writeTo(out);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            bytes += b.length();
        }

        @Override
        public long bytes() {
            return bytes;
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            try {
                out.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
