package io.dpone.serve;

import io.dpone.cdc.runtime.CdcRuntime;
import io.dpone.cdc.runtime.CdcRuntimeRunReport;
import io.dpone.cdc.runtime.CdcTickRunner;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.Redactor;
import io.dpone.camel.DponeCamel;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One periodic CDC tick through the {@code cdc_runtime_tick} route, in the stream's mode: {@code local} (an events
 * file, into the local sink or, with {@code sink_connection_id}, the ClickHouse log) or {@code live} (the source
 * alias's SQL Server CDC or Change Tracking reader into the ClickHouse log). A tick resumes from the durable offset store,
 * so a stop between ticks (or mid-tick, before the commit) loses nothing and duplicates nothing.
 */
public final class CdcStreamJob implements Processor {
    private static final Logger LOG = LoggerFactory.getLogger(CdcStreamJob.class);

    private final ServeConfig.CdcStream stream;
    private final DponeCamel camel;
    private final TargetLocks locks;
    private final ShutdownSignal signal;
    private final CdcStreamStats stats;
    private final ConnectionContext context;

    public CdcStreamJob(ServeConfig.CdcStream stream, DponeCamel camel, TargetLocks locks, ShutdownSignal signal,
                        ConnectionContext context) {
        this.context = context;
        this.stream = stream;
        this.camel = camel;
        this.locks = locks;
        this.signal = signal;
        this.stats = new CdcStreamStats(stream.name());
    }

    public CdcStreamStats stats() {
        return stats;
    }

    @Override
    public void process(Exchange exchange) {
        if (signal.stopping()) {
            return;
        }
        if (!locks.tryAcquire(stream.targetKey())) {
            stats.skipped();
            LOG.warn("cdc stream {}: serve.run_skipped_busy: a tick of the same target is in flight; skipped",
                stream.name());
            return;
        }
        try {
            // every mode (local file sink, local into ClickHouse, live SQL Server CDC / Change Tracking) runs its
            // tick through this pod's camel context, fenced like a CLI tick
            CdcRuntimeRunReport r = CdcRuntime.run(stream.options(), context, tick -> CdcTickRunner.run(camel, tick));
            stats.record(r);
            int applied = r.counts() == null ? 0 : r.counts().applied();
            String line = "cdc stream {}: tick {} {}: read {}, applied {}, committed position {}";
            Object[] args = {stream.name(), r.runId(), stats.getLastStatus(), r.counts() == null ? 0 : r.counts().read(),
                applied, stats.getCommittedPosition()};
            if (!r.passed()) {
                LOG.warn(line + " " + Redactor.global().redact(r.blockers().stream().map(b -> b.code()).toList().toString()),
                    args);
            } else if (applied > 0) {
                LOG.info(line, args);
            } else {
                LOG.debug(line, args); // an idle tick: counted in JMX and metrics, not worth a log line per tick
            }
        } catch (RuntimeException e) {
            LOG.error("cdc stream {}: {}", stream.name(), Redactor.global().describe(e));
        } finally {
            locks.release(stream.targetKey());
        }
    }
}
