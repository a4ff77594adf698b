package io.dpone.publication.certify;

/** One invariant checked on one member (or on the authority) after a live certification run. */
public record CertificationCheck(String check, String subject, boolean passed) {
}
