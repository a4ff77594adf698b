package io.dpone.cdc;

import java.util.List;

/**
 * One bounded read: the changes, the source's high watermark at read time (may be null) and the offset to commit
 * once the changes are durably applied ({@code nextOffset}, null when the reader could not provide one).
 */
public record CdcBatch(String highWatermark, CdcOffset nextOffset, List<CdcEvent> changes) {
    public CdcBatch {
        changes = List.copyOf(changes);
    }
}
