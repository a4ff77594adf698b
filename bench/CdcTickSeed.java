import io.dpone.cdc.mssql.H2CdcFixture;

/**
 * Seeds the H2 file database that {@code bench/cdc-live-ticks.sh} ticks from: the SQL Server CDC emulation of
 * {@code dbo.orders} ({@code H2CdcFixture}, from the test classes) with {@code CHANGES} committed changes, one insert
 * per source transaction (so a tick with {@code --max-events N} reads exactly N).
 * Usage: {@code java -cp "target/classes:target/test-classes:DEPS" bench/CdcTickSeed.java JDBC_URL CHANGES}.
 */
public final class CdcTickSeed {
    public static void main(String[] args) throws Exception {
        int changes = Integer.parseInt(args[1]);
        try (H2CdcFixture fx = new H2CdcFixture(args[0])) {
            fx.connection.setAutoCommit(false);
            for (int i = 1; i <= changes; i++) {
                fx.txn().insert(H2CdcFixture.row(i, i % 3 == 0 ? "paid" : "new", (i % 1000) + ".25",
                    i % 7 == 0 ? null : "note " + i, "2026-01-01T00:00:00")).commit();
                if (i % 1000 == 0) {
                    fx.connection.commit();
                }
            }
            fx.connection.commit();
        }
        System.out.println("seeded " + changes + " changes");
    }
}
