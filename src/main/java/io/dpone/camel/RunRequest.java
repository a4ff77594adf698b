package io.dpone.camel;

import io.dpone.connect.ConnectionContext;
import io.dpone.manifest.BatchManifest;
import java.nio.file.Path;

/**
 * What a caller asks of the {@code full_refresh} route (the exchange body it sends): run {@code manifest} with
 * {@code runId} in {@code context}, keeping state under {@code workDir}. A route trial ({@code dpone certify}: one
 * named route, at most {@code rowLimit} rows when above 0) runs the manifest's transfer route only: no cluster
 * publication and no CDC hand-over.
 */
public record RunRequest(BatchManifest manifest, String runId, ConnectionContext context, Path workDir,
                         long rowLimit, boolean routeTrial) {
    /** The run hands its snapshot over to the table's CDC stream (the manifest's {@code cdc} block). */
    public boolean handOver() {
        return manifest.cdc() != null && !routeTrial;
    }
}
