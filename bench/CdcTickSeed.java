import io.dpone.cdc.mssql.H2CdcFixture;

/**
 * Seeds the H2 file database that {@code bench/cdc-live-ticks.sh} ticks from: the SQL Server CDC emulation of
 * {@code dbo.orders} ({@code H2CdcFixture}, from the test classes) with {@code CHANGES} committed changes, one insert
 * per source transaction (so a tick with {@code --max-events N} reads exactly N), or {@code PER_TXN} inserts per
 * transaction (as {@code bench/CdcLiveBench.java} seeds: a tick of a multiple of it still reads exactly N).
 * Usage: {@code java -cp "target/classes:target/test-classes:DEPS" bench/CdcTickSeed.java JDBC_URL CHANGES [PER_TXN]}.
 */
public final class CdcTickSeed {
    public static void main(String[] args) throws Exception {
        int changes = Integer.parseInt(args[1]);
        int perTxn = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        try (H2CdcFixture fx = new H2CdcFixture(args[0])) {
            fx.connection.setAutoCommit(false);
            for (int i = 1; i <= changes; i += perTxn) {
                H2CdcFixture.Txn txn = fx.txn();
                for (int j = i; j < i + perTxn && j <= changes; j++) {
                    txn.insert(H2CdcFixture.row(j, j % 3 == 0 ? "paid" : "new", (j % 1000) + ".25",
                        j % 7 == 0 ? null : "note " + j, "2026-01-01T00:00:00"));
                }
                txn.commit();
                if ((i + perTxn - 1) / 1000 > (i - 1) / 1000) { // a JDBC commit about every 1000 changes
                    fx.connection.commit();
                }
            }
            fx.connection.commit();
        }
        System.out.println("seeded " + changes + " changes");
    }
}
