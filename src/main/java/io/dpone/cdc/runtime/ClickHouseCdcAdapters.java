package io.dpone.cdc.runtime;

import io.dpone.cdc.CdcSourceReader;
import io.dpone.cdc.EventIdentityIdempotency;
import io.dpone.cdc.StreamIdentity;
import io.dpone.cdc.clickhouse.ClickHouseCdcSinkApplier;
import io.dpone.cdc.clickhouse.ClickHouseOffsetStore;
import io.dpone.clickhouse.ClickHouseEndpoint;
import java.nio.file.Path;

/**
 * The ClickHouse side of a CDC tick: the CDC log named by the stream's {@code target_dataset} and the checkpoint
 * table {@code <target db>.dpone_cdc_offsets} (one row per pipeline), with any reader (events JSON or live).
 */
public final class ClickHouseCdcAdapters {
    public static final String OFFSETS_TABLE = "dpone_cdc_offsets";

    private ClickHouseCdcAdapters() {
    }

    /**
     * @param spoolDir local directory for batch spool files (e.g. {@code <output-dir>/sink/spool})
     */
    public static CdcTick.Adapters adapters(CdcSourceReader reader, ClickHouseEndpoint ch, StreamIdentity stream,
                                            Path spoolDir) {
        EventIdentityIdempotency identity = new EventIdentityIdempotency();
        ClickHouseCdcSinkApplier applier = ClickHouseCdcSinkApplier.forStream(ch, stream, identity, spoolDir);
        String database = stream.targetDataset().substring(0, stream.targetDataset().indexOf('.'));
        return new CdcTick.Adapters(reader, identity, applier, new ClickHouseOffsetStore(ch, database, OFFSETS_TABLE));
    }

    /**
     * A multi-table stream: one reader per table ({@code readers}, in the stream's table order), each table's own
     * CDC log, and one checkpoint row in {@code <db>.dpone_cdc_offsets} of the tables' database.
     */
    public static CdcTick.Adapters adapters(java.util.List<CdcSourceReader> readers, ClickHouseEndpoint ch,
                                            StreamIdentity stream, Path spoolDir) {
        return adapters(readers, java.util.Collections.nCopies(readers.size(), null), ch, stream, spoolDir);
    }

    /**
     * As above, with each table's snapshot ({@code snapshots}, in the same order; an entry may be null): how a table
     * added to the running stream takes its snapshot hand-over ({@link TableLanes.Lane#snapshot()}).
     */
    public static CdcTick.Adapters adapters(java.util.List<CdcSourceReader> readers,
                                            java.util.List<java.util.function.Function<io.dpone.cdc.CdcOffset,
                                                io.dpone.cdc.CdcBatch>> snapshots,
                                            ClickHouseEndpoint ch, StreamIdentity stream, Path spoolDir) {
        EventIdentityIdempotency identity = new EventIdentityIdempotency();
        java.util.List<TableLanes.Lane> lanes = new java.util.ArrayList<>();
        for (int i = 0; i < readers.size(); i++) {
            StreamIdentity table = stream.tables().get(i);
            // a spool file is named by its log and batch id: the lanes share the directory
            lanes.add(new TableLanes.Lane(table, readers.get(i), ClickHouseCdcSinkApplier.forStream(ch, table,
                identity, spoolDir), snapshots.get(i)));
        }
        TableLanes tables = new TableLanes(stream, lanes);
        String dataset = stream.tables().get(0).targetDataset();
        return new CdcTick.Adapters(tables.reader(), identity, tables.applier(),
            new ClickHouseOffsetStore(ch, dataset.substring(0, dataset.indexOf('.')), OFFSETS_TABLE),
            io.dpone.cdc.CdcTickFence.NONE, tables);
    }
}
