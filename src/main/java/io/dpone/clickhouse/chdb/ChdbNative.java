package io.dpone.clickhouse.chdb;

import com.sun.jna.Library;
import com.sun.jna.Pointer;

/**
 * JNA mapping of the chDB C API exported by {@code libchdb.so}. The npm package ships no header, so the
 * signatures are the documented C API (chdb.h): a connection is a {@code chdb_connection*} (pointer to the
 * connection pointer), results are opaque {@code chdb_result*}.
 */
interface ChdbNative extends Library {
    Pointer chdb_connect(int argc, String[] argv);

    void chdb_close_conn(Pointer connection);

    /** Since chDB 26.3: 0 keeps ClickHouse from installing its crash handlers (and resets eight signals, see
     * {@link SignalIsolation} for why that reset never reaches libc in dpone). */
    void chdb_set_signal_handlers_enabled(int enabled);

    Pointer chdb_query_n(Pointer conn, byte[] query, long queryLength, byte[] format, long formatLength);

    Pointer chdb_result_buffer(Pointer result);

    long chdb_result_length(Pointer result);

    long chdb_result_rows_read(Pointer result);

    long chdb_result_bytes_read(Pointer result);

    long chdb_result_rows_written(Pointer result);

    long chdb_result_bytes_written(Pointer result);

    double chdb_result_elapsed(Pointer result);

    Pointer chdb_result_error(Pointer result);

    void chdb_destroy_query_result(Pointer result);
}
