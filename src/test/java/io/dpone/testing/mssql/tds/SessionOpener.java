package io.dpone.testing.mssql.tds;

import io.dpone.testing.mssql.engine.SqlServerError;
import io.dpone.testing.mssql.engine.TwinSession;

/** Opens the engine session a login asks for ({@code H2Backend::open}). */
@FunctionalInterface
public interface SessionOpener {
    TwinSession open(String database) throws SqlServerError;
}
