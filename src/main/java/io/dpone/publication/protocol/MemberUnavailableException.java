package io.dpone.publication.protocol;

import io.dpone.publication.MemberId;

/**
 * A member could not be reached or did not answer; whether the statement ran is unknown. Carries only the opaque
 * member id.
 */
public class MemberUnavailableException extends RuntimeException {
    private final transient MemberId member;

    public MemberUnavailableException(MemberId member, String what) {
        super("member " + member + " unavailable during " + what);
        this.member = member;
    }

    public MemberId member() {
        return member;
    }
}
