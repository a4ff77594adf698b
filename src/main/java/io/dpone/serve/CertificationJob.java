package io.dpone.serve;

import io.dpone.certify.Certification;
import io.dpone.certify.CertificationReport;
import io.dpone.certify.Scenario;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.Redactor;
import io.dpone.error.Blocker;
import java.nio.file.Path;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.apache.camel.api.management.ManagedAttribute;
import org.apache.camel.api.management.ManagedOperation;
import org.apache.camel.api.management.ManagedResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A certification run on demand: the JMX operation {@code certify()} on {@code io.dpone:type=certifications,name=<name>},
 * or a message to {@code direct:dpone_certify_<name>}. It writes the evidence files under the configured output
 * directory and never touches a production target (see docs/certification.md). One at a time per name.
 */
@ManagedResource(description = "dpone route certification on demand")
public final class CertificationJob implements Processor {
    private static final Logger LOG = LoggerFactory.getLogger(CertificationJob.class);

    private final ServeConfig.CertificationSpec spec;
    private final ConnectionContext context;
    private final Path stateDir;
    private final TargetLocks locks;
    private final ShutdownSignal signal;
    private volatile String lastResult = "none";

    public CertificationJob(ServeConfig.CertificationSpec spec, ConnectionContext context, Path stateDir,
                            TargetLocks locks, ShutdownSignal signal) {
        this.spec = spec;
        this.context = context;
        this.stateDir = stateDir;
        this.locks = locks;
        this.signal = signal;
    }

    @Override
    public void process(Exchange exchange) {
        exchange.getMessage().setBody(certify());
    }

    @ManagedOperation(description = "Run the certification now; returns passed/failed, the preferred route and blocker codes")
    public String certify() {
        if (signal.stopping()) {
            return "stopping";
        }
        String key = "certify:" + spec.name();
        if (!locks.tryAcquire(key)) {
            return "skipped_busy";
        }
        try {
            String runId = RunIds.next(spec.name());
            CertificationReport r = new Certification(context, stateDir).run(spec.manifest(),
                Scenario.resolve(spec.manifest(), spec.scenario()), runId, spec.output().resolve(runId));
            lastResult = (r.passed() ? "passed" : "failed") + " run_id=" + runId + " preferred_route="
                + r.preferredRouteId() + " blockers=" + r.blockers().stream().map(Blocker::code).toList();
        } catch (RuntimeException e) {
            lastResult = "failed " + Redactor.global().describe(e);
        } finally {
            locks.release(key);
        }
        LOG.info("certification {}: {}", spec.name(), lastResult);
        return lastResult;
    }

    @ManagedAttribute(description = "Result of the last certification run")
    public String getLastResult() {
        return lastResult;
    }
}
