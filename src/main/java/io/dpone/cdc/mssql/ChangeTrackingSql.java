package io.dpone.cdc.mssql;

/**
 * The one piece of Change Tracking SQL that is dialect text: the row source of the net changes of a table since a
 * version, bound as the single parameter. Production is {@link SqlServerChangeTrackingSql}
 * ({@code CHANGETABLE(CHANGES [schema].[table], ?)}); the H2 test emulation maps it to a table function, because H2
 * cannot parse {@code CHANGES} inside a function call. Everything else the reader runs is the same text on both.
 * Another dialect is found with {@link java.util.ServiceLoader} (the test classpath registers the emulation's), so
 * production holds no test hook: {@link LiveReaders} picks the first registered dialect that reads the
 * connection's server, else SQL Server's.
 */
public interface ChangeTrackingSql {
    /** Whether this dialect reads Change Tracking on the server {@code connection} is connected to. */
    default boolean reads(java.sql.Connection connection) {
        return true;
    }

    /**
     * A table expression (without alias) yielding {@code SYS_CHANGE_VERSION}, {@code SYS_CHANGE_OPERATION} and
     * the primary-key columns for every row changed after the bound version (NULL: every tracked change).
     *
     * @param schema validated schema name
     * @param table  validated table name
     */
    String changesSince(String schema, String table);

}
