package io.dpone.publication.protocol;

import java.util.Optional;

/**
 * The platform-owned fence for publication targets (production: a KeeperMap table in strict mode). Writes are
 * create-if-absent and version-checked replace, so two operations can never both believe they own a target.
 * A write whose acknowledgement was lost may be retried by the store: callers re-read and compare the owner
 * operation id to recognise their own write. Versions are exact: 1 after create, one more per replace, so a
 * process can tell its own write (exactly one version on) from a newer process's rewrite of the same record.
 */
public interface PublicationAuthority {

    /** The current record and its version, or empty when the target is unfenced. */
    Optional<Fence> read(String targetKey);

    /** Creates the record; false when one already exists (strict create). */
    boolean create(String targetKey, FenceRecord record);

    /** Replaces the record if its version is still {@code expectedVersion}; false when it moved. */
    boolean replace(String targetKey, long expectedVersion, FenceRecord record);

    /** A record with the version it was read at. */
    record Fence(FenceRecord record, long version) {
    }
}
