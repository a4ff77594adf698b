package io.dpone.format;

/**
 * Writes one chunk file in one ClickHouse input format. The producer hands every row twice: as canonical values
 * and as its RowBinary bytes (already encoded for the typed hash), so a RowBinary writer copies bytes and other
 * formats encode the values.
 */
public interface ChunkWriter extends AutoCloseable {
    void write(Object[] row, ByteBuf rowBinary);

    /** Bytes written so far (for Parquet, an estimate until closed). */
    long bytes();

    /** Completes the file; the chunk is loadable only after this returns. */
    @Override
    void close();
}
