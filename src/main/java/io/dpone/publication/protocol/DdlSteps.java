package io.dpone.publication.protocol;

import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.time.Instant;
import java.util.function.BooleanSupplier;

/** Submit-once and bounded waiting for ON CLUSTER statements other than the publication exchange. */
final class DdlSteps {
    private DdlSteps() {
    }

    /** Submits {@code statement} unless the queue already holds an entry for {@code queryId}. */
    static void submitOnce(PublicationEnvironment env, String queryId, ClusterStatement statement) {
        if (env.ddl().entry(queryId).isPresent()) {
            return;
        }
        try {
            env.ddl().submit(queryId, statement);
        } catch (DdlOutcomeUnknownException e) {
            // reconciled by the caller's wait on member evidence
        }
    }

    /** Polls {@code done} until it holds or the DDL wait bound passes ({@code publication.ddl_pending}). */
    static void await(PublicationEnvironment env, String what, BooleanSupplier done) {
        Instant deadline = env.clock().now().plus(env.settings().ddlWait());
        while (!done.getAsBoolean()) {
            if (!env.clock().now().isBefore(deadline)) {
                throw new DponeException(BlockerCode.PUBLICATION_DDL_PENDING, "cluster",
                    what + " has not completed on every member yet");
            }
            env.clock().pause(env.settings().pollInterval());
        }
    }
}
