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
}
