package io.dpone.publication.protocol;

import io.dpone.publication.MemberId;
import java.util.Map;

/**
 * Puts a READY candidate for the generation on every member and reports, per member, the target's current UUID
 * (the predecessor) and the candidate's UUID. Only owned, unpublished candidates are ever dropped and rebuilt.
 */
interface CandidateStaging {
    Map<MemberId, FenceRecord.MemberRecord> stage(PublicationEnvironment env, Generation generation);

    static CandidateStaging of(PublicationMode mode) {
        return mode == PublicationMode.EXTERNAL ? new ExternalStaging() : new InternalStaging();
    }
}
