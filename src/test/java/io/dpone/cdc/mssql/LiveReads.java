package io.dpone.cdc.mssql;

import io.dpone.cdc.CdcBatch;
import io.dpone.cdc.CdcEvent;
import io.dpone.cdc.CdcOffset;
import io.dpone.cdc.CdcSourceReader;
import io.dpone.cdc.StreamIdentity;
import java.util.ArrayList;
import java.util.List;

/** Test helpers: drain a live reader batch by batch, committing each batch's next offset as the runtime would. */
final class LiveReads {
    static final StreamIdentity CDC = new StreamIdentity("orders-cdc", SqlServerCdcReader.BACKEND, "dbo", "orders",
        "analytics.orders_cdc", List.of("order_id"));
    static final StreamIdentity CT = new StreamIdentity("orders-ct", SqlServerChangeTrackingReader.BACKEND, "dbo",
        "orders", "analytics.orders_ct", List.of("order_id"));

    record Drain(List<CdcEvent> events, List<CdcOffset> offsets, CdcOffset last) {
    }

    private LiveReads() {
    }

    static Drain drain(CdcSourceReader reader, CdcOffset from, int maxEvents) {
        List<CdcEvent> events = new ArrayList<>();
        List<CdcOffset> offsets = new ArrayList<>();
        CdcOffset at = from;
        for (int guard = 0; guard < 10_000; guard++) {
            CdcBatch b = reader.readBatch(at, maxEvents);
            if (b.changes().size() > maxEvents) {
                throw new AssertionError("batch above the bound: " + b.changes().size());
            }
            events.addAll(b.changes());
            if (b.nextOffset() == null) {
                return new Drain(events, offsets, at);
            }
            offsets.add(b.nextOffset());
            at = b.nextOffset();
            if (b.changes().isEmpty()) {
                return new Drain(events, offsets, at);
            }
        }
        throw new AssertionError("the reader never finished");
    }

    /** "op:order_id" of each event, in order. */
    static List<String> ops(List<CdcEvent> events) {
        return events.stream().map(e -> e.operation().name() + ":" + e.data().get("order_id")).toList();
    }
}
