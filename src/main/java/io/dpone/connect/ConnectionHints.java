package io.dpone.connect;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The next step of a failed connection, for {@code connection.failed} messages: what to check (the server, the
 * host and port in the alias's url, the credential source), named through the alias. The endpoint itself is never
 * written (it would print as {@code <redacted:host>} at best, and an unregistered one not at all safely); the user
 * looks it up in their own context. The text passes through the redaction layer like every message: an absolute
 * password file path prints as {@code <redacted:path>}; the alias and the variable name stay readable.
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
        return "check that the " + server + " of alias '" + spec.alias() + "' is running and reachable from here"
            + (hostPort(spec.url()) == null ? "" : " at the host and port in its url")
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
