package io.dpone.storage;

/** The in-memory fake keeps the {@link ObjectStore} contract. */
class InMemoryObjectStoreTest extends ObjectStoreContract {
    @Override
    ObjectStore store() {
        return new InMemoryObjectStore();
    }
}
