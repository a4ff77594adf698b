package io.dpone.publication;

import io.dpone.publication.protocol.FenceRecord;
import io.dpone.publication.protocol.PublicationAuthority;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** The authority in memory: strict create and version-checked replace under one lock. */
public final class InMemoryAuthority implements PublicationAuthority {
    private final Map<String, Fence> records = new HashMap<>();

    @Override
    public synchronized Optional<Fence> read(String targetKey) {
        return Optional.ofNullable(records.get(targetKey));
    }

    @Override
    public synchronized boolean create(String targetKey, FenceRecord record) {
        return records.putIfAbsent(targetKey, new Fence(record, 1)) == null;
    }

    @Override
    public synchronized boolean replace(String targetKey, long expectedVersion, FenceRecord record) {
        Fence current = records.get(targetKey);
        if (current == null || current.version() != expectedVersion) {
            return false;
        }
        records.put(targetKey, new Fence(record, expectedVersion + 1));
        return true;
    }
}
