package io.dpone.format;

/** {@link TabSeparatedFormat} keeps the {@link ChunkFormatContract}. */
class TabSeparatedFormatContractTest extends ChunkFormatContract {
    @Override
    ChunkFormat format() {
        return new TabSeparatedFormat();
    }
}
