package io.dpone.quality;

import io.dpone.error.Blocker;
import java.util.Map;

/** One gate's verdict. {@code status} is passed, failed or skipped; a skipped gate is never counted as passed. */
public record GateResult(String gate, String status, Map<String, Object> details, Blocker blocker) {
    public GateResult {
        details = details == null ? Map.of() : Map.copyOf(details);
    }

    public static GateResult passed(String gate, Map<String, Object> details) {
        return new GateResult(gate, "passed", details, null);
    }

    public static GateResult failed(String gate, Map<String, Object> details, Blocker blocker) {
        return new GateResult(gate, "failed", details, blocker);
    }

    public static GateResult skipped(String gate, String reason) {
        return new GateResult(gate, "skipped", Map.of("reason", reason), null);
    }

    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isFailed() {
        return "failed".equals(status);
    }
}
