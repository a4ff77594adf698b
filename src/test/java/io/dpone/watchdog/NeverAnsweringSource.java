package io.dpone.watchdog;

import java.sql.Connection;

/** An H2 alias body for {@code sys.fn_cdc_get_max_lsn()}: a SQL Server that never answers (BoundedCommandTest). */
public final class NeverAnsweringSource {
    private NeverAnsweringSource() {
    }

    public static byte[] maxLsn(Connection c) throws InterruptedException {
        Thread.sleep(Long.MAX_VALUE); // the never-answering source under test
        return null;
    }
}
