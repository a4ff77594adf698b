package io.dpone.cdc.mssql;

import static io.dpone.cdc.mssql.H2CdcFixture.row;

import io.dpone.cdc.CdcSourceReader;
import io.dpone.cdc.CdcSourceReaderContract;
import io.dpone.testing.TestEngines;

/** The Change Tracking reader keeps the {@link CdcSourceReader} contract (on the H2 emulation of CHANGETABLE). */
class SqlServerChangeTrackingReaderContractTest extends CdcSourceReaderContract {
    @Override
    protected Source open() throws Exception {
        H2ChangeTrackingFixture fx = new H2ChangeTrackingFixture(TestEngines.newH2Url());
        SqlServerChangeTrackingReader reader = new SqlServerChangeTrackingReader(fx.connection, LiveReads.CT,
            H2ChangeTrackingFixture.DIALECT);
        return new Source() {
            @Override
            public void insert(int key) throws Exception {
                fx.insert(row(key, "new", "1.00", null, null));
            }

            @Override
            public CdcSourceReader reader() {
                return reader;
            }

            @Override
            public void close() throws Exception {
                fx.close();
            }
        };
    }
}
