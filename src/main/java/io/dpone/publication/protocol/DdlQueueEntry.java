package io.dpone.publication.protocol;

import io.dpone.publication.MemberId;
import java.util.Map;
import java.util.TreeMap;

/** A distributed-DDL queue entry as each member reports it. */
public record DdlQueueEntry(String queryId, Map<MemberId, Status> members) {
    public DdlQueueEntry {
        members = java.util.Collections.unmodifiableMap(new TreeMap<>(members));
    }

    /** A member's status for this entry. */
    public enum Status { QUEUED, ACTIVE, FINISHED, FAILED }

    /** True when every required member is done with the entry (finished or failed). */
    public boolean settled(java.util.Collection<MemberId> required) {
        return required.stream().allMatch(m -> members.get(m) == Status.FINISHED || members.get(m) == Status.FAILED);
    }

    public boolean finishedEverywhere(java.util.Collection<MemberId> required) {
        return required.stream().allMatch(m -> members.get(m) == Status.FINISHED);
    }
}
