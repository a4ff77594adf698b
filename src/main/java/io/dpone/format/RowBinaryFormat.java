package io.dpone.format;

import io.dpone.source.SourceColumn;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/** ClickHouse RowBinary chunks: the canonical bytes the producer already encoded, copied to the file. */
public final class RowBinaryFormat implements ChunkFormat {
    @Override
    public String clickHouseFormat() {
        return "RowBinary";
    }

    @Override
    public String extension() {
        return "rowbinary";
    }

    @Override
    public ChunkWriter open(Path file, List<SourceColumn> columns) {
        try {
            return new Writer(new BufferedOutputStream(io.dpone.connect.PrivateFiles.replace(file), 1 << 16));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a chunk file", e);
        }
    }

    private static final class Writer implements ChunkWriter {
        private final OutputStream out;
        private long bytes;

        Writer(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(Object[] row, ByteBuf rowBinary) {
            try {
                rowBinary.writeTo(out);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write a chunk file", e);
            }
            bytes += rowBinary.length();
        }

        @Override
        public long bytes() {
            return bytes;
        }

        @Override
        public void close() {
            try {
                out.close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot complete a chunk file", e);
            }
        }
    }
}
