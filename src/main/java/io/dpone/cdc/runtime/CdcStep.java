package io.dpone.cdc.runtime;

import io.dpone.error.DponeException;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * A step of the {@code cdc_runtime_tick} route. A typed failure ({@link DponeException}) becomes blockers on the
 * tick and the step throws {@link TickHalted}, which the route's {@code doCatch} turns into a jump to the report;
 * any other exception is a crash and goes to the error policy.
 */
public abstract class CdcStep implements Processor {
    private final String name;

    protected CdcStep(String name) {
        this.name = name;
    }

    @Override
    public final void process(Exchange exchange) {
        CdcTick tick = exchange.getMessage().getBody(CdcTick.class);
        if (tick == null) {
            throw new IllegalStateException("the exchange body of cdc_runtime_tick must be a CdcTick");
        }
        if (tick.halted() && !runsWhenHalted()) {
            return; // defence in depth: a step an edited route placed after the doTry still skips a halted tick
        }
        long t0 = System.nanoTime();
        boolean halted = false;
        try {
            run(tick);
        } catch (DponeException e) {
            tick.block(e.blockers());
            halted = true;
        } finally {
            tick.timed(name, (System.nanoTime() - t0) / 1_000_000);
        }
        if (halted && !runsWhenHalted()) {
            throw new TickHalted();
        }
    }

    protected boolean runsWhenHalted() {
        return false;
    }

    protected abstract void run(CdcTick tick);
}
