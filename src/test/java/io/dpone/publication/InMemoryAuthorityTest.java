package io.dpone.publication;

import io.dpone.publication.protocol.PublicationAuthority;

class InMemoryAuthorityTest extends PublicationAuthorityContract {
    private final InMemoryAuthority authority = new InMemoryAuthority();

    @Override
    protected PublicationAuthority authority() {
        return authority;
    }
}
