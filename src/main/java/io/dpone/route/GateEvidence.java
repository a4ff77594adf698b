package io.dpone.route;

import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.quality.GateResult;
import io.dpone.quality.QualityGate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The evidence a run must hold before it publishes and before its report may say "passed", whatever its route
 * file says: every gate of {@link QualityGateProcessor} ran (a gate may report itself skipped, with its reason) and
 * none failed. A route edited to drop or replace the gates step therefore cannot publish ({@code publish} refuses)
 * and cannot pass ({@link FullRefreshRunner} refuses the report).
 */
final class GateEvidence {
    /** The gate names every published run carries, in report order. */
    static final List<String> REQUIRED = QualityGateProcessor.gates("off", List.of()).stream()
        .map(QualityGate::name).toList();

    private GateEvidence() {
    }

    /** The blockers that keep {@code run} from publishing or passing: empty when its gate evidence is complete. */
    static List<Blocker> problems(TransferRun run) {
        List<GateResult> gates = run.gates();
        Set<String> ran = gates.stream().map(GateResult::gate).collect(Collectors.toSet());
        List<String> missing = REQUIRED.stream().filter(g -> !ran.contains(g)).toList();
        List<Blocker> out = new ArrayList<>();
        gates.stream().filter(GateResult::isFailed).map(GateEvidence::blockerOf).forEach(out::add);
        if (!missing.isEmpty()) {
            out.add(Blocker.of(BlockerCode.RUN_GATES_MISSING, run.plan().routeId(),
                "route '" + run.plan().routeId() + "' did not run the quality gates " + missing
                    + "; a run publishes and passes only on its gates' evidence",
                Map.of("missing_gates", missing, "route_id", run.plan().routeId())));
        }
        return out;
    }

    /** Refuses publication of a run whose gates did not all run and pass. */
    static void requireComplete(TransferRun run) {
        List<Blocker> problems = problems(run);
        if (!problems.isEmpty()) {
            throw new DponeException(problems);
        }
    }

    private static Blocker blockerOf(GateResult failed) {
        return failed.blocker() != null ? failed.blocker() : Blocker.of(BlockerCode.RUN_GATES_MISSING, failed.gate(),
            "gate '" + failed.gate() + "' failed without a blocker", Map.of("failed_gates", List.of(failed.gate())));
    }
}
