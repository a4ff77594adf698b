package io.dpone.cdc.runtime;

/**
 * Thrown by a step of the {@code cdc_runtime_tick} route after it recorded a typed blocker on the tick: the route's
 * {@code doCatch} takes the tick straight to the report, so no later step (apply, commit) runs. Carries no text of
 * its own; the blockers are on the tick.
 */
public final class TickHalted extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TickHalted() {
        super("the CDC tick halted on a blocker", null, false, false);
    }
}
