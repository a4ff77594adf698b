package io.dpone.testing.mssql.engine;

import java.sql.SQLException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * T-SQL to H2 text for the statements H2 runs itself. The rewrites, each outside literals, brackets and comments:
 * {@code CHANGETABLE(CHANGES t, v) AS a} to a derived table over the twin's tracking log ({@link ChangeTracking});
 * {@code @@TRANCOUNT}, {@code @@SPID}, {@code @@VERSION}, {@code @@ROWCOUNT}, {@code DB_NAME()} to the session's
 * values; {@code x.rows} (a reserved word in H2, a column of {@code sys.partitions}) quoted; {@code @name}
 * parameters to {@code ?}, bound by name in order of occurrence.
 */
final class Translation {
    private static final Pattern ROWS = Pattern.compile("(?i)(?<=\\.)rows\\b");

    record Translated(String sql, List<String> names) {
    }

    private Translation() {
    }

    static Translated translate(EngineSession s, String sql) throws SqlServerError {
        String t;
        try {
            t = ChangeTracking.rewriteChangeTable(s, sql);
        } catch (SQLException e) {
            throw SqlErrors.of(e, sql);
        }
        t = s.sessionValues(t);
        t = SqlText.replace(t, ROWS, m -> "\"rows\"");
        SqlText.Bound b = SqlText.bindParameters(t);
        return new Translated(b.sql(), b.names());
    }
}
