package io.dpone.format;

/** {@link RowBinaryFormat} keeps the {@link ChunkFormatContract}. */
@io.dpone.testing.EngineTest
class RowBinaryFormatTest extends ChunkFormatContract {
    @Override
    ChunkFormat format() {
        return new RowBinaryFormat();
    }
}
