package io.dpone.testing.mssql.engine;

import java.io.IOException;
import java.util.List;

/**
 * One client connection's session on the twin's H2 database: T-SQL in, results out through {@link Results}. The
 * wire dispatches SQL batches to {@link #batch} and the RPCs mssql-jdbc sends ({@code sp_executesql},
 * {@code sp_prepexec}/{@code sp_prepare}/{@code sp_execute}/{@code sp_unprepare}, named procedures) to the other
 * methods. A failing statement throws {@link SqlServerError} after whatever it already wrote to {@code out} (an error
 * in the middle of a result: the rows before it are written).
 */
public interface TwinSession extends AutoCloseable {
    /** A SQL batch: one or more statements, run in order; the first error ends the batch. */
    void batch(String sql, Results out) throws IOException, SqlServerError;

    /**
     * {@code sp_executesql}: {@code sql} with {@code @name} parameters declared in {@code definitions}
     * ({@code "@P0 bigint,@P1 nvarchar(4000)"}), bound from {@code params} by name.
     */
    void execute(String sql, String definitions, List<Param> params, Results out) throws IOException, SqlServerError;

    /** {@code sp_prepare}: a handle for {@code sql} with its parameter {@code definitions}. */
    int prepare(String sql, String definitions) throws SqlServerError;

    /** {@code sp_execute}: runs a prepared handle with {@code params}. */
    void executePrepared(int handle, List<Param> params, Results out) throws IOException, SqlServerError;

    /** {@code sp_unprepare}. */
    void unprepare(int handle);

    /**
     * A stored procedure called by name over RPC ({@code {call sys.sp_cdc_enable_table(?,?,?)}}), its parameters by
     * name ({@code @source_schema}) or position.
     */
    void call(String procedure, List<Param> params, Results out) throws IOException, SqlServerError;

    /** The current database's name (ENVCHANGE after {@code USE}). */
    String database();

    @Override
    void close();
}
