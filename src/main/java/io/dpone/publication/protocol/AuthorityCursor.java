package io.dpone.publication.protocol;

import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.util.Map;
import java.util.Optional;

/**
 * This operation's view of its authority record: acquires the fence, then advances the record with
 * version-checked writes. A write that reports failure is re-read: finding exactly the record we wrote means
 * the store retried our own write (lost acknowledgement: exactly one version on) and is accepted; anything else
 * is a conflict. Resuming its own record, a process first takes it over (rewrites it, one version on), so an
 * older process of the same operation that is still alive fails {@link #verify()} before its next write.
 */
final class AuthorityCursor {
    private final PublicationAuthority authority;
    private final String key;
    private final String operationId;
    private FenceRecord record;
    private long version;
    private Phase foundAt;

    private AuthorityCursor(PublicationAuthority authority, String key, String operationId) {
        this.authority = authority;
        this.key = key;
        this.operationId = operationId;
    }

    /** Takes the fence for {@code operationId} (a fresh record carries {@code inventoryDigest}), or resumes it;
     * throws {@code publication.fenced} when another operation's record is unresolved. */
    static AuthorityCursor acquire(PublicationAuthority authority, String key, String operationId,
                                   String inventoryDigest) {
        AuthorityCursor c = new AuthorityCursor(authority, key, operationId);
        Optional<PublicationAuthority.Fence> current = authority.read(key);
        if (current.isEmpty()) {
            FenceRecord fresh = FenceRecord.fenced(operationId, inventoryDigest);
            boolean created = authority.create(key, fresh);
            current = authority.read(key);
            if (current.isPresent() && current.get().version() == 1 && current.get().record().equals(fresh)) {
                // our create (version 1), or its retry after a lost acknowledgement
                return c.at(current.get(), null);
            }
            if (created || current.isEmpty()) {
                // created, then overtaken before it was read back: a newer process of this operation holds it
                throw current.isEmpty() ? fenced(null) : conflict();
            }
        }
        FenceRecord found = current.get().record();
        if (found.operationId().equals(operationId)) {
            c.at(current.get(), found.phase());
            c.advance(found);
            return c;
        }
        if (!found.phase().resolved()) {
            throw fenced(found);
        }
        c.record = found;
        c.version = current.get().version();
        c.advance(FenceRecord.fenced(operationId, inventoryDigest));
        c.foundAt = null;
        return c;
    }

    private AuthorityCursor at(PublicationAuthority.Fence fence, Phase resumedFrom) {
        this.record = fence.record();
        this.version = fence.version();
        this.foundAt = resumedFrom;
        return this;
    }

    FenceRecord record() {
        return record;
    }

    /** The phase found when this operation resumed its own record; null for a fresh fence. */
    Phase foundAt() {
        return foundAt;
    }

    /** Writes {@code next} over the current record (version-checked). */
    FenceRecord advance(FenceRecord next) {
        io.dpone.watchdog.PhaseWatchdog.phase("publication/" + next.phase().name().toLowerCase(java.util.Locale.ROOT));
        if (authority.replace(key, version, next)) {
            PublicationAuthority.Fence now = reread(authority, key);
            if (!now.record().equals(next) || now.version() != version + 1) {
                throw conflict();
            }
            record = now.record();
            version = now.version();
            return record;
        }
        Optional<PublicationAuthority.Fence> now = authority.read(key);
        if (now.isPresent() && now.get().record().equals(next) && now.get().version() == version + 1) {
            record = next;
            version = now.get().version();
            return record;
        }
        if (now.isPresent() && !now.get().record().operationId().equals(operationId)) {
            throw fenced(now.get().record());
        }
        throw conflict();
    }

    /**
     * Passes only while the authority still holds exactly the record and version this process last wrote; called
     * before every write to a member, the DDL channel, the stores or the source state ({@link FencedWrites}).
     */
    void verify() {
        Optional<PublicationAuthority.Fence> now = authority.read(key);
        if (now.isPresent() && now.get().version() == version && now.get().record().equals(record)) {
            return;
        }
        if (now.isPresent() && !now.get().record().operationId().equals(operationId)) {
            throw fenced(now.get().record());
        }
        throw conflict();
    }

    private static PublicationAuthority.Fence reread(PublicationAuthority authority, String key) {
        return authority.read(key).orElseThrow(AuthorityCursor::conflict);
    }

    private static DponeException conflict() {
        return new DponeException(BlockerCode.PUBLICATION_AUTHORITY_CONFLICT, "authority",
            "the authority record changed under this operation");
    }

    private static DponeException fenced(FenceRecord holder) {
        Map<String, Object> details = holder == null ? Map.of()
            : Map.of("fencing_operation_id", holder.operationId(), "fencing_phase", holder.phase().name());
        return new DponeException(Blocker.of(BlockerCode.PUBLICATION_FENCED, "authority",
            "the target is fenced by another unresolved operation", details));
    }
}
