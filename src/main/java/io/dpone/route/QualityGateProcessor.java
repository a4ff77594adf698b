package io.dpone.route;

import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import io.dpone.quality.GateResult;
import io.dpone.quality.MetadataColumnsGate;
import io.dpone.quality.NullCountGate;
import io.dpone.quality.QualityGate;
import io.dpone.quality.RowCountGate;
import io.dpone.quality.SourceStats;
import io.dpone.quality.TargetStats;
import io.dpone.quality.TypedHashGate;
import io.dpone.quality.DistinctCountGate;
import io.dpone.quality.FidelityColumns;
import io.dpone.quality.FidelityGate;
import java.util.List;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Runs the quality gates on the loaded staging table against the source-side statistics. Any failed gate stops
 * the route before publication; the error policy then drops the staging table, so the target is untouched.
 */
public final class QualityGateProcessor implements Processor {
    @Override
    public void process(Exchange exchange) {
        TransferRun run = exchange.getProperty(RouteProperties.RUN, TransferRun.class);
        long t0 = System.nanoTime();
        ChunkProducer producer = run.resources().producer();
        SourceStats source = producer.stats();
        run.sourceStats(source);
        if ("Parquet".equals(run.format().clickHouseFormat())) {
            // the Parquet writer's time apart from reading: source_read is the rest of the encoder thread's time
            run.counters().setStep("source_read", (producer.readNanos() - producer.writeNanos()) / 1_000_000);
            run.counters().setStep("parquet_write", producer.writeNanos() / 1_000_000);
        } else {
            run.counters().setStep("source_read", producer.readNanos() / 1_000_000);
        }
        // prepare started it on the staging table (a resume after publish has none: the route skips this step)
        TargetStats target = run.stagingStats().finish(List.copyOf(source.distinctCounts().keySet()));
        for (QualityGate gate : gates(run.plan().manifest().quality().typedHash(), run.table().columns())) {
            run.addGate(gate.evaluate(source, target));
        }
        if (run.plan().manifest().source().valuePolicies().declared()) {
            run.addGate(io.dpone.quality.ValuePolicyGate.evaluate(run.table()));
        }
        run.counters().addStep("dq", t0);
        // the part of dq after the last chunk landed: what the gates add to the run's wall clock
        run.counters().setStep("dq_tail", (System.nanoTime() - t0) / 1_000_000);
        List<Blocker> failed = run.gates().stream().filter(GateResult::isFailed).map(GateResult::blocker).toList();
        if (!failed.isEmpty()) {
            throw new DponeException(failed);
        }
    }

    /** The gates every published run passes (or skips, where the gate itself says why), in report order. */
    static List<QualityGate> gates(String typedHash, List<io.dpone.source.SourceColumn> columns) {
        return List.of(new RowCountGate(), new NullCountGate(), new DistinctCountGate(), new TypedHashGate(typedHash),
            new FidelityGate("decimal", FidelityColumns.decimal(columns)),
            new FidelityGate("float", FidelityColumns.floats(columns)),
            new FidelityGate("unicode", FidelityColumns.unicode(columns)),
            new MetadataColumnsGate());
    }
}
