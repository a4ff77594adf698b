package io.dpone.testing.twin;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Errors as a ClickHouse server sends them over HTTP: the engine's own message as the body
 * ({@code Code: N. DB::Exception: ... (NAME) (version V)}), the code in {@code X-ClickHouse-Exception-Code}, and the
 * status of the server's {@code exceptionCodeToHTTPStatus}: 403 for authentication, 400 for syntax and argument
 * errors, 404 for unknown objects, 408 for timeouts, 501 for not implemented, 500 otherwise.
 */
final class TwinErrors {
    static final int AUTHENTICATION_FAILED = 516;
    private static final Pattern CODE = Pattern.compile("Code: (\\d+)\\.");
    private static final Map<Integer, Integer> STATUS = Map.ofEntries(
        Map.entry(AUTHENTICATION_FAILED, 403), Map.entry(192, 403), Map.entry(193, 403), // UNKNOWN_USER, WRONG_PASSWORD
        Map.entry(194, 401), // REQUIRED_PASSWORD
        Map.entry(62, 400), Map.entry(36, 400), Map.entry(53, 400), Map.entry(27, 400), Map.entry(6, 400),
        Map.entry(38, 400), Map.entry(26, 400), Map.entry(42, 400), Map.entry(43, 400), Map.entry(44, 400),
        Map.entry(117, 400), Map.entry(115, 400), Map.entry(70, 400), // syntax, bad arguments, type and parse errors
        Map.entry(60, 404), Map.entry(81, 404), Map.entry(46, 404), Map.entry(47, 404), Map.entry(16, 404),
        Map.entry(39, 404), // unknown table, database, function, identifier, column, setting
        Map.entry(159, 408), Map.entry(160, 408), Map.entry(209, 408), // timeouts
        Map.entry(48, 501)); // NOT_IMPLEMENTED

    private TwinErrors() {
    }

    /** The ClickHouse error code at the head of an engine message; 1001 (STD_EXCEPTION) when it has none. */
    static int code(String message) {
        Matcher m = CODE.matcher(message);
        return m.find() ? Integer.parseInt(m.group(1)) : 1001;
    }

    static int status(int code) {
        return STATUS.getOrDefault(code, 500);
    }

    /** The body a server sends: the engine's message as it is, or one in the server's shape when it has no code. */
    static String body(String message, String version) {
        String text = message.strip();
        if (!CODE.matcher(text).lookingAt()) {
            text = "Code: 1001. DB::Exception: " + text + ". (STD_EXCEPTION)";
        }
        return text + (text.contains("(version ") ? "" : " (version " + version + ")") + "\n";
    }

    static String authenticationFailed(String user, String version) {
        return "Code: 516. DB::Exception: " + user + ": Authentication failed: password is incorrect, or there is no "
            + "user with such name. (AUTHENTICATION_FAILED) (version " + version + ")\n";
    }
}
