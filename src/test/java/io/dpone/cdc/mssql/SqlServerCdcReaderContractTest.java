package io.dpone.cdc.mssql;

import static io.dpone.cdc.mssql.H2CdcFixture.row;

import io.dpone.cdc.CdcSourceReader;
import io.dpone.cdc.CdcSourceReaderContract;
import io.dpone.testing.TestEngines;

/** The SQL Server CDC reader keeps the {@link CdcSourceReader} contract (on the H2 emulation of {@code cdc.*}). */
class SqlServerCdcReaderContractTest extends CdcSourceReaderContract {
    @Override
    protected Source open() throws Exception {
        H2CdcFixture fx = new H2CdcFixture(TestEngines.newH2Url());
        SqlServerCdcReader reader = new SqlServerCdcReader(fx.connection, LiveReads.CDC,
            H2CdcFixture.CAPTURE_INSTANCE);
        return new Source() {
            @Override
            public void insert(int key) throws Exception {
                fx.txn().insert(row(key, "new", "1.00", null, null)).commit();
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
