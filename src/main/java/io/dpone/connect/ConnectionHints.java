package io.dpone.connect;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The next step of a failed connection, for {@code connection.failed} messages: what to check (the server, the
 * url's host and port, the credential source), named through the alias. The text passes through the redaction layer
 * like every message: a registered endpoint's {@code host:port} prints as {@code <redacted:host>}, an absolute
 * password file path as {@code <redacted:path>}; the alias and the variable name stay readable.
 */
public final class ConnectionHints {
    private static final Pattern AUTHORITY = Pattern.compile("://(?:[^@/\\s]*@)?([^:/;?#\\s]+)(?::([0-9]{1,5}))?");

    private ConnectionHints() {
    }

    /** {@code host:port} of the url ({@code host} alone without a port), or null. */
    static String hostPort(String url) {
        if (url == null) {
            return null;
        }
        Matcher m = AUTHORITY.matcher(url);
        if (!m.find()) {
            return null;
        }
        return m.group(2) == null ? m.group(1) : m.group(1) + ":" + m.group(2);
    }

    /** The server did not answer: where it should be and what to check. */
    public static String unreachable(ConnectionSpec spec, String server) {
        String at = hostPort(spec.url());
        return "check that the " + server + " of alias '" + spec.alias() + "' is running and reachable from here"
            + (at == null ? "" : " at its url's host and port (" + at + ")")
            + ", and that the alias's url in the connection context is right";
    }

    /** The server answered and refused the login: which user and where its credential comes from. */
    public static String refused(ConnectionSpec spec) {
        return "check the user" + (spec.user() == null ? "" : " '" + spec.user() + "'") + " of alias '"
            + spec.alias() + "' and its credential ("
            + (spec.credentialSource() == null ? "password_env or password_file" : spec.credentialSource()) + ")";
    }

    /** Either cause: both checks. */
    public static String either(ConnectionSpec spec, String server) {
        return unreachable(spec, server) + "; then " + refused(spec);
    }
}
