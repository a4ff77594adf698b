package io.dpone.cdc;

import io.dpone.source.SourceColumn;
import java.util.List;

/**
 * One bounded read: the changes, the source's high watermark at read time (may be null), the offset to commit
 * once the changes are durably applied ({@code nextOffset}, null when the reader could not provide one) and the
 * source table's payload columns with their SQL Server types ({@code columns}, empty when the reader does not know
 * them: an events file without a {@code columns} block), and per column under a declared value policy
 * ({@code clamp}, {@code null}, {@code as_text}) how many of the batch's values the policy changed
 * ({@code policyChanged}, in column order; empty when no policy is declared).
 */
public record CdcBatch(String highWatermark, CdcOffset nextOffset, List<CdcEvent> changes,
                       List<SourceColumn> columns, java.util.Map<String, Long> policyChanged) {
    public CdcBatch {
        changes = List.copyOf(changes);
        columns = List.copyOf(columns);
        policyChanged = policyChanged == null ? java.util.Map.of()
            : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(policyChanged));
    }

    /** A batch whose columns take no declared value policy. */
    public CdcBatch(String highWatermark, CdcOffset nextOffset, List<CdcEvent> changes, List<SourceColumn> columns) {
        this(highWatermark, nextOffset, changes, columns, null);
    }

    /** A batch whose column types are not known. */
    public CdcBatch(String highWatermark, CdcOffset nextOffset, List<CdcEvent> changes) {
        this(highWatermark, nextOffset, changes, List.of());
    }
}
