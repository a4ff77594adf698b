package io.dpone.clickhouse;

import io.dpone.retry.OperationKind;
import io.dpone.retry.RetryBudget;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A run's endpoint under its {@link RetryBudget}: retries, after a transient fault, the operations that are idempotent
 * and only those. A read-only query ({@code SELECT}, {@code SHOW}, {@code DESCRIBE}, {@code EXISTS}, {@code WITH})
 * is a {@code metadata_query}; a chunk insert whose settings carry an {@code insert_deduplication_token} is a
 * {@code chunk_insert} (a second delivery of the same chunk adds no rows: the staging table keeps a
 * {@code non_replicated_deduplication_window}). Every other statement ({@link #execute}: DDL, EXCHANGE, INSERT ...
 * SELECT, a cleanup) and an insert without a token run once, as before: they reconcile by reading state after a
 * failure, never by running again blindly.
 */
public final class RetryingClickHouseEndpoint implements ClickHouseEndpoint {
    private static final Pattern READ_ONLY = Pattern.compile("^\\s*(SELECT|SHOW|DESCRIBE|DESC|EXISTS|WITH)\\b",
        Pattern.CASE_INSENSITIVE);
    private static final String TOKEN = "insert_deduplication_token";

    private final ClickHouseEndpoint inner;
    private final RetryBudget budget;

    public RetryingClickHouseEndpoint(ClickHouseEndpoint inner, RetryBudget budget) {
        this.inner = inner;
        this.budget = budget;
    }

    /** The endpoint underneath (for the callers that need its own type, such as a server's query ids). */
    public ClickHouseEndpoint inner() {
        return inner;
    }

    /**
     * The operations over this endpoint, so each of their statements runs under the retry budget; a fake's own
     * operations (no SQL to run) are its own.
     */
    @Override
    public ClickHouseOperations operations() {
        ClickHouseOperations own = inner.operations();
        return own instanceof SqlOperations ? new SqlOperations(this) : own;
    }

    @Override
    public void execute(String sql) {
        inner.execute(sql);
    }

    @Override
    public List<List<String>> query(String sql) {
        return READ_ONLY.matcher(sql).find() ? budget.call(OperationKind.METADATA_QUERY, () -> inner.query(sql))
            : inner.query(sql);
    }

    @Override
    public List<List<String>> queryReadOnly(String sql) {
        return budget.call(OperationKind.METADATA_QUERY, () -> inner.queryReadOnly(sql));
    }

    @Override
    public void insertFile(InsertFile insert) {
        if (insert.settings() != null && insert.settings().toLowerCase(Locale.ROOT).contains(TOKEN)) {
            budget.run(OperationKind.CHUNK_INSERT, () -> inner.insertFile(insert));
        } else {
            inner.insertFile(insert);
        }
    }

    @Override
    public String kind() {
        return inner.kind();
    }

    @Override
    public void close() {
        inner.close();
    }
}
