package io.dpone.publication.admission;

import io.dpone.publication.MemberId;

/**
 * One row of {@code system.clusters} for the publication cluster. Host and port are the member's advertised
 * native address: they are used only to resolve a connection and to derive the opaque {@link MemberId}, and
 * must never be printed (there is deliberately no {@code toString} exposing them beyond the record default,
 * so never log this record; log {@link #id()}).
 */
public record AdvertisedMember(String cluster, String host, int port, int shardNum, int replicaNum,
                               boolean internalReplication) {
    public MemberId id() {
        return MemberId.of(cluster, host, port);
    }

    @Override
    public String toString() {
        return "member " + id();
    }
}
