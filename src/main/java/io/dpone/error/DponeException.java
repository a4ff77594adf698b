package io.dpone.error;

import java.util.List;

/** A typed failure carrying the blockers that explain it. Its message is already safe to show. */
public class DponeException extends RuntimeException implements CompleteMessage {
    private static final long serialVersionUID = 1L;
    private final transient List<Blocker> blockers;

    public DponeException(List<Blocker> blockers) {
        super(blockers.isEmpty() ? "failed" : blockers.get(0).code() + ": " + blockers.get(0).message());
        this.blockers = List.copyOf(blockers);
    }

    public DponeException(Blocker blocker) {
        this(List.of(blocker));
    }

    public DponeException(BlockerCode code, String subject, String message) {
        this(Blocker.of(code, subject, message));
    }

    public List<Blocker> blockers() {
        return blockers;
    }
}
