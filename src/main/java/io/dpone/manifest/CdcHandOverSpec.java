package io.dpone.manifest;

import java.util.List;

/**
 * The manifest's {@code cdc} block: the CDC stream the refreshed table hands its snapshot over to. The stream is
 * the source table's, with {@code pipelineName}, {@code backend}, its CDC log {@code logDataset} ({@code db.table})
 * and {@code uniqueKeys}; its checkpoint lives in {@code offsetStore} ({@code clickhouse}: the log database's
 * {@code dpone_cdc_offsets} table on the sink connection; {@code file}: {@code checkpointJson}).
 */
public record CdcHandOverSpec(String backend, String pipelineName, String logDataset, List<String> uniqueKeys,
                              String captureInstance, String offsetStore, String checkpointJson) {
    public CdcHandOverSpec {
        uniqueKeys = List.copyOf(uniqueKeys);
    }
}
