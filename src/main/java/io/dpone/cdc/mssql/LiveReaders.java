package io.dpone.cdc.mssql;

import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.CdcSourceReader;
import io.dpone.cdc.StreamIdentity;
import java.sql.Connection;

/** The live reader of a backend: {@code mssql_cdc} or {@code mssql_change_tracking}. */
public final class LiveReaders {
    private LiveReaders() {
    }

    /**
     * @param captureInstance {@code mssql_cdc} only; null for the default {@code <schema>_<table>}
     * @param policies what the reader does with a value ClickHouse cannot hold
     */
    public static CdcSourceReader reader(String backend, Connection source, StreamIdentity stream,
                                         String captureInstance, io.dpone.manifest.ValuePolicies policies) {
        return switch (backend) {
            case SqlServerCdcReader.BACKEND -> new SqlServerCdcReader(source, stream, captureInstance != null
                ? captureInstance
                : SqlServerCdcReader.defaultCaptureInstance(stream.sourceSchema(), stream.sourceTable()), policies);
            case SqlServerChangeTrackingReader.BACKEND ->
                new SqlServerChangeTrackingReader(source, stream, ChangeTrackingSql.forConnection(source), policies);
            default -> throw CdcBlockers.failure(CdcBlockers.MODE_UNSUPPORTED, "--backend",
                "no live reader exists for this backend");
        };
    }
}
