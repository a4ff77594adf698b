package io.dpone.cdc;

class InMemorySinkApplierTest extends CdcSinkApplierContract {
    private final InMemorySinkApplier sink = new InMemorySinkApplier();

    @Override
    CdcSinkApplier applier() {
        return sink;
    }

    @Override
    int rowCount() {
        return sink.rows.size();
    }
}
