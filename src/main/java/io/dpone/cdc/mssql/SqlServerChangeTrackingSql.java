package io.dpone.cdc.mssql;

import io.dpone.source.SqlServerDialect;

/** {@code CHANGETABLE(CHANGES [schema].[table], ?)}: the last sync version is a parameter, never spliced text. */
public final class SqlServerChangeTrackingSql implements ChangeTrackingSql {
    @Override
    public String changesSince(String schema, String table) {
        return "CHANGETABLE(CHANGES " + SqlServerDialect.quote(schema) + "." + SqlServerDialect.quote(table) + ", ?)";
    }
}
