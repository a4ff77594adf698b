package io.dpone.clickhouse;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Whether a statement typed by a user ({@code dpone sql}) only reads: one statement (a trailing {@code ;} allowed)
 * whose first keyword, after comments, is {@code SELECT}, {@code WITH}, {@code SHOW}, {@code DESCRIBE}/{@code DESC},
 * {@code EXISTS} or {@code EXPLAIN}, and no {@code INTO OUTFILE}. This is dpone's own guard, applied on every
 * endpoint before anything is sent; a server endpoint also runs the statement with ClickHouse's {@code readonly=1}
 * ({@link ClickHouseEndpoint#queryReadOnly}).
 */
public final class ReadOnlySql {
    private static final Set<String> READ_KEYWORDS = Set.of("SELECT", "WITH", "SHOW", "DESCRIBE", "DESC", "EXISTS",
        "EXPLAIN");
    private static final Pattern LEADING_COMMENTS = Pattern.compile("\\A(?:\\s+|--[^\\n]*(?:\\n|\\z)|/\\*.*?\\*/)*",
        Pattern.DOTALL);
    private static final Pattern OUTFILE = Pattern.compile("\\bINTO\\s+OUTFILE\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern FIRST_WORD = Pattern.compile("\\A\\(*\\s*([A-Za-z]+)");

    private ReadOnlySql() {
    }

    /** The statement to send (comments before it and one trailing {@code ;} removed), or why it is refused. */
    public static Optional<String> refusal(String sql) {
        if (sql == null || sql.isBlank()) {
            return Optional.of("the statement is empty");
        }
        String body = LEADING_COMMENTS.matcher(sql).replaceFirst("").strip();
        if (body.endsWith(";")) {
            body = body.substring(0, body.length() - 1).strip();
        }
        if (body.contains(";")) {
            return Optional.of("one statement at a time (a ';' separates statements)");
        }
        var first = FIRST_WORD.matcher(body);
        String word = first.find() ? first.group(1).toUpperCase(Locale.ROOT) : "";
        if (!READ_KEYWORDS.contains(word)) {
            return Optional.of("only SELECT, WITH, SHOW, DESCRIBE, EXISTS and EXPLAIN statements run here"
                + (word.isEmpty() ? "" : " (this one starts with " + word + ")"));
        }
        if (OUTFILE.matcher(body).find()) {
            return Optional.of("INTO OUTFILE writes a file; it does not run here");
        }
        return Optional.empty();
    }

    /** {@code sql} without leading comments and its trailing {@code ;}: what is sent once {@link #refusal} is empty. */
    public static String statement(String sql) {
        String body = LEADING_COMMENTS.matcher(sql).replaceFirst("").strip();
        return body.endsWith(";") ? body.substring(0, body.length() - 1).strip() : body;
    }
}
