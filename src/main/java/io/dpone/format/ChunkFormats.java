package io.dpone.format;

import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/** The chunk formats a route can name in its YAML ({@code dponeFormat} exchange property). */
public final class ChunkFormats {
    private static final Map<String, Supplier<ChunkFormat>> FORMATS = Map.of(
        "rowbinary", RowBinaryFormat::new,
        "tsv", TabSeparatedFormat::new,
        "parquet", ParquetFormat::new);

    private ChunkFormats() {
    }

    /** The format called {@code name}; throws {@link IllegalArgumentException} naming the known ones. */
    public static ChunkFormat byName(String name) {
        Supplier<ChunkFormat> f = FORMATS.get(name == null ? "rowbinary" : name.toLowerCase(Locale.ROOT));
        if (f == null) {
            throw new IllegalArgumentException("unknown chunk format '" + name + "'; known: " + FORMATS.keySet());
        }
        return f.get();
    }
}
