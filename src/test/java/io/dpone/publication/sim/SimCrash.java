package io.dpone.publication.sim;

/** The simulated process dies here. An {@link Error}, so no protocol code can catch and continue past it. */
final class SimCrash extends Error {
    SimCrash(String where) {
        super("simulated crash " + where, null, false, false);
    }
}
