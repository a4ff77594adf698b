package io.dpone.format;

/** {@link TabSeparatedFormat} keeps the {@link ChunkFormatContract}. */
@io.dpone.testing.EngineTest
class TabSeparatedFormatContractTest extends ChunkFormatContract {
    @Override
    ChunkFormat format() {
        return new TabSeparatedFormat();
    }
}
