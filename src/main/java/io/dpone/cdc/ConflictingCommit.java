package io.dpone.cdc;

import io.dpone.error.DponeException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The {@code cdc_runtime.offset_conflict} of a compare-and-set commit that found another writer's offset. */
public final class ConflictingCommit {
    private ConflictingCommit() {
    }

    /** The stored offset is {@code current}, not the {@code expected} one this tick loaded. */
    public static DponeException of(StreamIdentity stream, String subject, Optional<CdcOffset> current,
                                    Optional<CdcOffset> expected) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("loaded_position", expected.map(CdcOffset::token).orElse("none"));
        details.put("stored_position", current.map(CdcOffset::token).orElse("none"));
        return new DponeException(CdcBlockers.blocker(CdcBlockers.OFFSET_CONFLICT, subject,
            "another tick committed stream " + stream.pipelineName() + " after this tick loaded its offset; "
                + "this tick's offset was not committed (its applied events are recognised on the next tick)",
            details));
    }

    /** Another writer committed at the same moment: the store kept the other row or both. */
    public static DponeException concurrent(StreamIdentity stream, String subject, String otherWriter) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("other_writer", otherWriter);
        return new DponeException(CdcBlockers.blocker(CdcBlockers.OFFSET_CONFLICT, subject,
            "another tick committed stream " + stream.pipelineName() + " at the same moment as this tick; "
                + "this tick does not count its commit (its applied events are recognised on the next tick)",
            details));
    }
}
