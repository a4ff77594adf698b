package io.dpone.testing.mssql.engine;

import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.h2.api.ErrorCode;

/** H2 failures as the SQL Server errors a client would get for the same statement. */
final class SqlErrors {
    private static final Pattern QUOTED = Pattern.compile("\"([^\"]*)\"");
    private static final Pattern NEAR = Pattern.compile("\\[\\*\\]\\s*([^\\s,;()]*)");

    private SqlErrors() {
    }

    static SqlServerError of(SQLException e, String sql) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        String first = firstQuoted(message);
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof ClrTypes.Raised r) {
                return r.error;
            }
        }
        return switch (e.getErrorCode()) {
            case ErrorCode.GENERATED_COLUMN_CANNOT_BE_ASSIGNED_1 -> new SqlServerError(271, 1, 16, "The column \""
                + lastPart(first) + "\" cannot be modified because it is either a computed column or is the result "
                + "of a UNION operator.");
            case ErrorCode.TABLE_OR_VIEW_NOT_FOUND_1, ErrorCode.TABLE_OR_VIEW_NOT_FOUND_WITH_CANDIDATES_2,
                ErrorCode.TABLE_OR_VIEW_NOT_FOUND_DATABASE_EMPTY_1, ErrorCode.SCHEMA_NOT_FOUND_1 ->
                new SqlServerError(208, "Invalid object name '" + asWritten(sql, first) + "'.");
            case ErrorCode.COLUMN_NOT_FOUND_1 -> new SqlServerError(207, "Invalid column name '"
                + lastPart(first) + "'.");
            case ErrorCode.SYNTAX_ERROR_1, ErrorCode.SYNTAX_ERROR_2 -> syntax(near(message));
            case ErrorCode.DUPLICATE_KEY_1 -> new SqlServerError(2627, 1, 14, "Violation of PRIMARY KEY or UNIQUE "
                + "constraint. Cannot insert duplicate key. (" + firstLine(message) + ")");
            case ErrorCode.NULL_NOT_ALLOWED -> new SqlServerError(515, 2, 16, "Cannot insert the value NULL into "
                + "column '" + lastPart(first) + "'; column does not allow nulls. INSERT fails.");
            case ErrorCode.CHECK_CONSTRAINT_VIOLATED_1, ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE_1,
                ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE_2 -> new SqlServerError(8115, 2, 16,
                "Arithmetic overflow error converting expression to data type. (" + firstLine(message) + ")");
            case ErrorCode.VALUE_TOO_LONG_2 -> new SqlServerError(2628, 1, 16, "String or binary data would be "
                + "truncated. (" + firstLine(message) + ")");
            case ErrorCode.DEADLOCK_1 -> deadlock();
            case ErrorCode.LOCK_TIMEOUT_1 -> new SqlServerError(1222, 56, 16, "Lock request time out period exceeded.");
            case ErrorCode.FUNCTION_NOT_FOUND_1 -> new SqlServerError(195, 10, 15, "'" + first
                + "' is not a recognized built-in function name.");
            case ErrorCode.DIVISION_BY_ZERO_1 -> new SqlServerError(8134, 1, 16, "Divide by zero error encountered.");
            case ErrorCode.TABLE_OR_VIEW_ALREADY_EXISTS_1 -> new SqlServerError(2714, 6, 16, "There is already an "
                + "object named '" + lastPart(first) + "' in the database.");
            default -> new SqlServerError(50000, 1, 16, firstLine(message));
        };
    }

    /** The object name as the statement wrote it ({@code dbo.nope} for {@code [dbo].[nope]}), H2's name otherwise. */
    private static String asWritten(String sql, String name) {
        if (sql == null || name.isEmpty()) {
            return name;
        }
        Matcher m = Pattern.compile(SqlText.NAME).matcher(SqlText.mask(sql));
        while (m.find()) {
            try {
                java.util.List<String> parts = Names.parts(sql.substring(m.start(), m.end()));
                if (parts.get(parts.size() - 1).equalsIgnoreCase(name)) {
                    return String.join(".", parts);
                }
            } catch (IllegalArgumentException ignored) {
                // not a name
            }
        }
        return name;
    }

    static SqlServerError deadlock() {
        return new SqlServerError(1205, 51, 13, "Transaction (Process ID 51) was deadlocked on lock resources with "
            + "another process and has been chosen as the deadlock victim. Rerun the transaction.");
    }

    static SqlServerError syntax(String near) {
        return new SqlServerError(102, 1, 15, "Incorrect syntax near '" + near + "'.");
    }

    private static String firstQuoted(String message) {
        Matcher m = QUOTED.matcher(message);
        return m.find() ? m.group(1) : "";
    }

    private static String lastPart(String name) {
        int dot = name.lastIndexOf('.');
        return dot < 0 ? name : name.substring(dot + 1);
    }

    private static String near(String message) {
        Matcher m = NEAR.matcher(message);
        return m.find() && !m.group(1).isEmpty() ? m.group(1) : "end of statement";
    }

    private static String firstLine(String message) {
        int nl = message.indexOf('\n');
        return (nl < 0 ? message : message.substring(0, nl)).replaceAll("; SQL statement:$", "");
    }
}
