package io.dpone.serve;

import java.util.function.Supplier;
import org.apache.camel.api.management.ManagedOperation;
import org.apache.camel.api.management.ManagedResource;

/** A job's {@link TransferStats} plus the JMX operation that starts a run now ({@code io.dpone:type=jobs}). */
@ManagedResource(description = "dpone scheduled job: statistics and a run-now operation")
public class JobStats extends TransferStats {
    private final Supplier<String> trigger;

    public JobStats(String name, Supplier<String> trigger) {
        super(name);
        this.trigger = trigger;
    }

    @ManagedOperation(description = "Run the job now on the caller's thread; returns passed, failed, skipped_busy or stopping")
    public String runNow() {
        return trigger.get();
    }
}
