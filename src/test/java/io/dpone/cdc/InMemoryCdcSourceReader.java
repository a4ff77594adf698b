package io.dpone.cdc;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A {@link CdcSourceReader} over changes held in memory, for tests of the code above the reader. Each
 * {@link #commit} is one transaction at the next position; a read returns the changes after the offset, at most
 * {@code maxEvents}, cut only between transactions (a transaction larger than {@code maxEvents} is refused, as a
 * live reader without a resume point would have to). It passes the {@link CdcSourceReaderContract}.
 */
public final class InMemoryCdcSourceReader implements CdcSourceReader {
    private final String backend;
    private final List<CdcEvent> changes = new ArrayList<>();
    private long position;

    public InMemoryCdcSourceReader(String backend) {
        this.backend = backend;
    }

    /** Commits one transaction holding {@code rows} of {@code schema.table} as inserts; returns its position. */
    public synchronized String commit(String schema, String table, List<Map<String, Object>> rows) {
        String at = "0x" + Long.toHexString(++position);
        long sequence = 0;
        for (Map<String, Object> row : rows) {
            changes.add(new CdcEvent(CdcOperation.insert, at, sequence++, schema, table, row,
                Map.of("backend", backend)));
        }
        return at;
    }

    @Override
    public synchronized CdcBatch readBatch(CdcOffset from, int maxEvents) {
        List<CdcEvent> out = new ArrayList<>();
        for (CdcEvent e : changes) {
            if (from != null && CdcPosition.compare(e.position(), from.token()) <= 0) {
                continue;
            }
            boolean newTransaction = out.isEmpty() || !out.get(out.size() - 1).position().equals(e.position());
            if (out.size() >= maxEvents && newTransaction) {
                break;
            }
            if (out.size() >= maxEvents) {
                throw CdcBlockers.failure(CdcBlockers.EVENTS_INVALID, "changes",
                    "a transaction holds more than " + maxEvents + " changes");
            }
            out.add(e);
        }
        String high = changes.isEmpty() ? null : changes.get(changes.size() - 1).position();
        CdcOffset next = out.isEmpty() ? from
            : new CdcOffset(backend, out.get(out.size() - 1).position(), true);
        return new CdcBatch(high, next, out);
    }
}
