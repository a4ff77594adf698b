package io.dpone.clickhouse.cdc;

import io.dpone.clickhouse.ClickHouseEndpoint;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A {@link ClickHouseEndpoint} that runs nothing: it records each statement ({@code execute}, {@code query}, and
 * {@code insertFile} as its parts) and answers each query with the next of the answers it was given (none left: no
 * rows). For the statement-text tests of this package's builders.
 */
final class RecordingEndpoint implements ClickHouseEndpoint {
    final List<String> statements = new ArrayList<>();
    final List<InsertFile> inserts = new ArrayList<>();
    private final Deque<List<List<String>>> answers = new ArrayDeque<>();

    /** Queues the rows the next unanswered query returns. */
    RecordingEndpoint answer(List<List<String>> rows) {
        answers.add(rows);
        return this;
    }

    @Override
    public void execute(String sql) {
        statements.add(sql);
    }

    @Override
    public List<List<String>> query(String sql) {
        statements.add(sql);
        return answers.isEmpty() ? List.of() : answers.poll();
    }

    @Override
    public void insertFile(InsertFile insert) {
        inserts.add(insert);
    }

    @Override
    public String kind() {
        return "recording";
    }

    @Override
    public void close() {
    }
}
