package io.dpone.publication.admission;

import io.dpone.clickhouse.ClickHouseEndpoint;

/**
 * Opens a direct connection to one advertised member. {@code system.clusters} advertises native ports, while
 * dpone talks to members over the official client's HTTP interface; the resolver maps each advertised member to
 * a reachable HTTP endpoint (per-member connection aliases by default; an injected resolver where Docker, a
 * proxy or NAT changes addresses). Throws {@code DponeException} with a typed blocker when a member cannot be
 * resolved or opened.
 */
public interface EndpointResolver {
    ClickHouseEndpoint open(AdvertisedMember member);

    /** A secret-free identity of where {@code member} resolves to, bound into the inventory digest. */
    String resolvedIdentity(AdvertisedMember member);
}
