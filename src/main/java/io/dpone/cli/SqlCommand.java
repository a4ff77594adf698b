package io.dpone.cli;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseEndpoints;
import io.dpone.clickhouse.ClickHouseQueryException;
import io.dpone.clickhouse.ReadOnlySql;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.EmbeddedDefaults;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dpone sql [--connection ALIAS] "SELECT ..."}: a look into the embedded ClickHouse (the default) or a
 * ClickHouse alias of the connection context. Reads only: {@link ReadOnlySql} refuses anything but one read
 * statement ({@code sql.not_read_only}) before it is sent, and a server runs it with {@code readonly=1}. Output as a
 * text table or {@code --format json}, through the redaction layer like every document.
 */
@Command(name = "sql", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Run one read-only query (SELECT, WITH, SHOW, DESCRIBE, EXISTS, EXPLAIN) on a ClickHouse alias.")
public final class SqlCommand implements Callable<Integer> {
    static final String SCHEMA = "dpone.sql.v1";
    /** Rows printed at most; the document says when there were more. */
    static final int MAX_ROWS = 10_000;

    @Option(names = "--connection", defaultValue = EmbeddedDefaults.CLICKHOUSE_ALIAS,
        description = "ClickHouse alias of the connection context (default: ${DEFAULT-VALUE}, the embedded engine)")
    String connection;

    @Option(names = "--format", defaultValue = "text", description = "json or text (default: ${DEFAULT-VALUE})")
    Format format;

    @Parameters(index = "0", paramLabel = "QUERY", description = "One read-only statement, quoted.")
    String query;

    @Override
    public Integer call() {
        var refused = ReadOnlySql.refusal(query);
        if (refused.isPresent()) {
            return failed(Blocker.of(BlockerCode.SQL_NOT_READ_ONLY, "QUERY", "dpone sql runs read-only statements: "
                + refused.get()));
        }
        List<List<String>> rows;
        try (ClickHouseEndpoint ch = ClickHouseEndpoints.open(ConnectionContext.fromEnvironment()
                .resolve(connection, ConnectionType.CLICKHOUSE, "--connection"))) {
            rows = ch.queryReadOnly(query);
        } catch (DponeException e) {
            return failed(e.blockers());
        } catch (ClickHouseQueryException e) {
            boolean readonly = e.getMessage() != null && (e.getMessage().contains("(READONLY)")
                || e.getMessage().contains("Code: 164."));
            return failed(Blocker.of(readonly ? BlockerCode.SQL_NOT_READ_ONLY : BlockerCode.SQL_QUERY_FAILED,
                connection, (readonly ? "the server refused a write in read-only mode: " : "the query failed on '"
                    + connection + "': ") + e.getMessage()));
        }
        List<String> columns = rows.isEmpty() ? List.of() : rows.get(0);
        List<List<String>> data = rows.isEmpty() ? List.of() : rows.subList(1, rows.size());
        boolean truncated = data.size() > MAX_ROWS;
        if (truncated) {
            data = data.subList(0, MAX_ROWS);
        }
        List<Map<String, Object>> objects = new ArrayList<>();
        for (List<String> row : data) {
            Map<String, Object> o = new LinkedHashMap<>();
            for (int i = 0; i < columns.size() && i < row.size(); i++) {
                o.put(columns.get(i), row.get(i));
            }
            objects.add(o);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("schema", SCHEMA);
        doc.put("passed", true);
        doc.put("connection", connection);
        doc.put("columns", columns);
        doc.put("rows", objects);
        doc.put("row_count", data.size());
        doc.put("truncated", truncated);
        return Output.emit(true, doc, table(columns, data, truncated), format);
    }

    private int failed(Blocker b) {
        return failed(List.of(b));
    }

    private int failed(List<Blocker> blockers) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("schema", SCHEMA);
        doc.put("passed", false);
        doc.put("blockers", blockers);
        return Output.emit(false, doc, "sql: nothing run:\n" + Output.blockersText(blockers), format);
    }

    /** The rows as a text table: a header, a rule, one line per row ({@code NULL} for SQL NULL), the row count. */
    static String table(List<String> columns, List<List<String>> rows, boolean truncated) {
        int[] width = new int[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            width[i] = columns.get(i).length();
            for (List<String> r : rows) {
                width[i] = Math.max(width[i], cell(r, i).length());
            }
            width[i] = Math.min(width[i], 60);
        }
        StringBuilder sb = new StringBuilder();
        line(sb, columns, width);
        for (int i = 0; i < width.length; i++) {
            sb.append(i == 0 ? "" : "-+-").append("-".repeat(width[i]));
        }
        sb.append('\n');
        for (List<String> r : rows) {
            List<String> cells = new ArrayList<>();
            for (int i = 0; i < columns.size(); i++) {
                cells.add(cell(r, i));
            }
            line(sb, cells, width);
        }
        sb.append('(').append(rows.size()).append(rows.size() == 1 ? " row" : " rows")
            .append(truncated ? ", the first " + MAX_ROWS + " shown" : "").append(")\n");
        return sb.toString();
    }

    private static String cell(List<String> row, int i) {
        String v = i < row.size() ? row.get(i) : null;
        String s = v == null ? "NULL" : v.replace("\n", "\\n").replace("\t", "\\t");
        return s.length() > 60 ? s.substring(0, 59) + "~" : s;
    }

    private static void line(StringBuilder sb, List<String> cells, int[] width) {
        for (int i = 0; i < width.length; i++) {
            sb.append(i == 0 ? "" : " | ").append(String.format("%-" + width[i] + "s", cells.get(i)));
        }
        sb.append('\n');
    }
}
