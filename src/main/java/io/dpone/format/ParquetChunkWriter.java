package io.dpone.format;

import io.dpone.format.parquet.ParquetColumn;
import io.dpone.format.parquet.ParquetWriteOptions;
import io.dpone.format.parquet.RowGroupFileWriter;
import io.dpone.format.parquet.ZstdCodecFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.schema.MessageType;

/**
 * One Parquet chunk file being written with the format's {@link ParquetWriteOptions}: row groups cut by
 * {@link RowGroupFileWriter} at the options' bounds, rows encoded by {@link ParquetRowEncoder}. A failed write
 * aborts the file on close; the compressor is released when the writer closes (or fails to open).
 */
final class ParquetChunkWriter implements ChunkWriter {
    private final Path path;
    private final ParquetRowEncoder encoder;
    private final RowGroupFileWriter out;
    private final BytesInputCompressor compressor;
    private long finalBytes = -1;
    private boolean failed;

    ParquetChunkWriter(Path path, ParquetColumn[] columns, ParquetWriteOptions options) throws IOException {
        this.path = path;
        encoder = new ParquetRowEncoder(columns);
        MessageType schema = ParquetFormat.schema(columns);
        ParquetProperties props = options.properties(columns);
        compressor = new ZstdCodecFactory(options.level()).getCompressor(options.codec(), options.level());
        try {
            out = new RowGroupFileWriter(path, schema, props, compressor, options.rowGroupBytes(),
                options.rowGroupRows(), Map.of());
        } catch (IOException | RuntimeException e) {
            compressor.release();
            throw e;
        }
    }

    @Override
    public void write(Object[] row, ByteBuf rowBinary) {
        if (failed) {
            throw new IllegalStateException("chunk writer failed earlier");
        }
        try {
            encoder.write(row, out.columns());
            out.endRow();
        } catch (IOException e) {
            failed = true;
            throw new UncheckedIOException("cannot write a chunk file", e);
        } catch (RuntimeException e) {
            failed = true;
            throw e;
        }
    }

    @Override
    public long bytes() {
        if (finalBytes >= 0) {
            return finalBytes;
        }
        try {
            return out.estimatedBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot size a chunk file", e);
        }
    }

    @Override
    public void close() {
        if (finalBytes >= 0) {
            return;
        }
        try {
            if (failed) {
                out.abort();
                finalBytes = 0;
                return;
            }
            out.close();
            finalBytes = Files.size(path);
        } catch (IOException e) {
            failed = true;
            finalBytes = 0;
            out.abort();
            throw new UncheckedIOException("cannot complete a chunk file", e);
        } finally {
            compressor.release();
        }
    }
}
