package io.dpone.cdc.mssql;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The H2 emulation's Change Tracking row source ({@link H2ChangeTrackingFixture}): the table function
 * {@code ct_changes(CAST(? AS BIGINT), '<schema>.<table>')} in place of {@code CHANGETABLE(CHANGES ...)}, which H2
 * cannot parse. Registered for {@link java.util.ServiceLoader} in the test classpath's
 * {@code META-INF/services/io.dpone.cdc.mssql.ChangeTrackingSql}: a live reader on an H2 connection finds it through
 * {@code LiveReaders}, so no test sets a hook in production code.
 */
public final class H2ChangeTrackingSql implements ChangeTrackingSql {
    @Override
    public String changesSince(String schema, String table) {
        return "ct_changes(CAST(? AS BIGINT), '" + schema + "." + table + "')";
    }

    @Override
    public boolean reads(Connection connection) {
        try {
            return "H2".equals(connection.getMetaData().getDatabaseProductName());
        } catch (SQLException e) {
            return false;
        }
    }
}
