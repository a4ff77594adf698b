package io.dpone.clickhouse;

import java.nio.file.Path;
import java.util.List;

/**
 * A ClickHouse the runtime talks to: a real server over the official HTTP client, or the embedded engine.
 * Everything above this interface is written once. Callers use the typed {@link #operations()}; statements are built
 * in this package ({@link SqlOperations}, the stats readers), quoted by {@link ClickHouseSql}; implementations add no
 * SQL of their own beyond the insert shape below.
 */
public interface ClickHouseEndpoint extends AutoCloseable {

    /**
     * The typed operations on this ClickHouse (issue 33): {@link SqlOperations} over {@link #execute}/{@link #query} on
     * a real engine; a fake returns its own implementation, which keeps state in memory and parses no SQL.
     */
    default ClickHouseOperations operations() {
        return new SqlOperations(this);
    }

    /**
     * The low-level path: runs a statement that returns no rows (DDL, INSERT ... SELECT, EXCHANGE, SYSTEM ...). Code
     * outside this package uses {@link #operations()}; what still calls this from outside is being migrated.
     */
    void execute(String sql);

    /**
     * The low-level path: runs a query and returns its rows; each value is its text form, SQL NULL is {@code null}.
     * Code outside this package uses {@link #operations()}; what still calls this from outside is being migrated.
     */
    List<List<String>> query(String sql);

    /**
     * Runs a statement a user typed that {@link ReadOnlySql} let through: the column names first, then the rows
     * (each value its text form, SQL NULL {@code null}). A server endpoint runs it with ClickHouse's
     * {@code readonly=1}, so the server itself refuses any write; the embedded engine is one session shared by the
     * process, whose settings a query cannot change without changing them for every other user, so there
     * {@link ReadOnlySql} is the guard.
     */
    default List<List<String>> queryReadOnly(String sql) {
        throw new UnsupportedOperationException(kind() + " endpoint runs no user query");
    }

    /**
     * Loads one spooled chunk file. The statement run is
     * {@code INSERT INTO table (columns) SELECT selectList FROM <chunk as format with structure>}: the embedded
     * engine reads the file with {@code file()}, a server receives its bytes through {@code input()}.
     */
    void insertFile(InsertFile insert);

    /** A short, secret-free description of the endpoint kind ({@code embedded} or {@code server}). */
    String kind();

    @Override
    void close();

    /** The parts of a chunk insert; SQL fragments must come from {@link ClickHouseSql}. */
    record InsertFile(String table, String columns, String selectList, Path file, String format, String structure,
                      String settings) {
    }
}
