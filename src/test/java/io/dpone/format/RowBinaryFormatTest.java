package io.dpone.format;

/** {@link RowBinaryFormat} keeps the {@link ChunkFormatContract}. */
class RowBinaryFormatTest extends ChunkFormatContract {
    @Override
    ChunkFormat format() {
        return new RowBinaryFormat();
    }
}
