package io.dpone.cdc;

import java.util.List;
import java.util.Map;

/** The in-memory fake keeps the {@link CdcSourceReader} contract. */
class InMemoryCdcSourceReaderTest extends CdcSourceReaderContract {
    @Override
    protected Source open() {
        InMemoryCdcSourceReader reader = new InMemoryCdcSourceReader("mssql_cdc");
        return new Source() {
            @Override
            public void insert(int key) {
                reader.commit("dbo", "orders", List.of(Map.of("order_id", key, "status", "new")));
            }

            @Override
            public CdcSourceReader reader() {
                return reader;
            }

            @Override
            public void close() {
            }
        };
    }
}
