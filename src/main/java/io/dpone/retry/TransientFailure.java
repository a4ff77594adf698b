package io.dpone.retry;

import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;

/**
 * A typed failure that {@link TransientFaults} classified as transient where the raw cause was still visible (the
 * connection's own package translates raw client exceptions into typed ones and drops their text, which may name
 * endpoints). Its blockers and message are those of any {@link DponeException}; the type alone says "worth another
 * try" to the retry budget.
 */
public class TransientFailure extends DponeException {
    private static final long serialVersionUID = 1L;

    public TransientFailure(BlockerCode code, String subject, String message) {
        super(code, subject, message);
    }
}
