package io.dpone.cdc.mssql;

import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.retry.TransientFailure;
import io.dpone.retry.TransientFaults;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * {@code source.read_failed} of a live CDC reader, transient ({@link TransientFailure}) when the connection broke
 * (issue 35): a SQLState of class {@code 08} or a socket failure under the driver's exception
 * ({@link TransientFaults#isTransientSql}), or any failure after which the driver closed its connection
 * (mssql-jdbc's "SQL Server returned an incomplete response" carries no SQLState). A tick's reader then reads the
 * batch again on a fresh connection under the tick's retry budget ({@code source_read}); a statement the server
 * refused stays permanent.
 */
final class ReadFailures {
    private ReadFailures() {
    }

    static DponeException readFailed(Connection connection, SQLException e, String subject, String message) {
        boolean broken = !TransientFaults.refused(e) && (TransientFaults.isTransientSql(e) || closed(connection));
        return broken ? new TransientFailure(BlockerCode.SOURCE_READ_FAILED, subject, message)
            : new DponeException(BlockerCode.SOURCE_READ_FAILED, subject, message);
    }

    private static boolean closed(Connection c) {
        try {
            return c.isClosed();
        } catch (SQLException e) {
            return true;
        }
    }
}
