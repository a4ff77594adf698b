package io.dpone.cdc.mssql;

import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.CdcSourceReader;
import io.dpone.cdc.StreamIdentity;
import java.sql.Connection;

/** The live reader of a backend: {@code mssql_cdc} or {@code mssql_change_tracking}. */
public final class LiveReaders {
    /** The registered Change Tracking dialects ({@link ChangeTrackingSql}), loaded once per process. */
    private static final java.util.List<ChangeTrackingSql> DIALECTS = java.util.ServiceLoader
        .load(ChangeTrackingSql.class).stream().map(java.util.ServiceLoader.Provider::get).toList();

    private LiveReaders() {
    }

    /** The Change Tracking dialect for {@code connection}: a registered one that reads it, else SQL Server's. */
    static ChangeTrackingSql changeTrackingSql(Connection connection) {
        for (ChangeTrackingSql d : DIALECTS) {
            if (d.reads(connection)) {
                return d;
            }
        }
        return new SqlServerChangeTrackingSql();
    }

    /**
     * @param captureInstance {@code mssql_cdc} only; null for the default {@code <schema>_<table>}
     * @param policies what the reader does with a value ClickHouse cannot hold
     */
    public static CdcSourceReader reader(String backend, Connection source, StreamIdentity stream,
                                         String captureInstance, io.dpone.manifest.ValuePolicies policies) {
        return reader(backend, source, stream, captureInstance, policies, false);
    }

    /**
     * As above; {@code allowCaptureInstanceDdl} ({@code --allow-capture-instance-ddl}) lets the {@code mssql_cdc}
     * reader create a table's second capture instance when the one it reads no longer matches the table.
     */
    public static CdcSourceReader reader(String backend, Connection source, StreamIdentity stream,
                                         String captureInstance, io.dpone.manifest.ValuePolicies policies,
                                         boolean allowCaptureInstanceDdl) {
        return switch (backend) {
            case SqlServerCdcReader.BACKEND -> new SqlServerCdcReader(source, stream, captureInstance != null
                ? captureInstance
                : SqlServerCdcReader.defaultCaptureInstance(stream.sourceSchema(), stream.sourceTable()), policies)
                .allowingCaptureInstanceDdl(allowCaptureInstanceDdl);
            case SqlServerChangeTrackingReader.BACKEND ->
                new SqlServerChangeTrackingReader(source, stream, changeTrackingSql(source), policies);
            default -> throw CdcBlockers.failure(CdcBlockers.MODE_UNSUPPORTED, "--backend",
                "no live reader exists for this backend");
        };
    }
}
