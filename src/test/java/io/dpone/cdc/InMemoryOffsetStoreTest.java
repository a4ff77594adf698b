package io.dpone.cdc;

class InMemoryOffsetStoreTest extends CdcOffsetStoreContract {
    @Override
    CdcOffsetStore store() {
        return new InMemoryOffsetStore();
    }
}
