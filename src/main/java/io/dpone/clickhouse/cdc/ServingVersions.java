package io.dpone.clickhouse.cdc;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import java.math.BigInteger;
import java.util.List;
import java.util.Optional;

/** The versions a CDC serving dataset records: the highest in a table, the applied version the materializer keeps. */
public final class ServingVersions {
    private static final String VERSION = "dpone_cdc_version";

    private final ClickHouseEndpoint ch;

    public ServingVersions(ClickHouseEndpoint ch) {
        this.ch = ch;
    }

    /** The highest {@code dpone_cdc_version} in {@code database.table}; zero for none. */
    public BigInteger max(String database, String table) {
        String v = ch.query("SELECT toString(max(" + ClickHouseSql.id(VERSION) + ")) FROM "
            + ClickHouseSql.table(database, table)).get(0).get(0);
        return v == null || v.isEmpty() ? BigInteger.ZERO : new BigInteger(v);
    }

    /**
     * The applied version recorded for {@code targetDataset} in the state table {@code database.stateTable} (its
     * latest state row), or empty when none is recorded.
     */
    public Optional<BigInteger> applied(String database, String stateTable, String targetDataset) {
        List<List<String>> rows = ch.query("SELECT argMax(applied_version, state_version) FROM "
            + ClickHouseSql.table(database, stateTable) + " WHERE target_dataset = "
            + ClickHouseSql.literal(targetDataset) + " HAVING count() > 0");
        if (rows.isEmpty() || rows.get(0).get(0) == null || rows.get(0).get(0).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new BigInteger(rows.get(0).get(0)));
    }
}
