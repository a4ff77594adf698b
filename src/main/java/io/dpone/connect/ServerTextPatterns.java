package io.dpone.connect;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@link Redactor#serverText(String)} adds to the catalogue for text a server wrote (a ClickHouse error body,
 * whatever it holds): shapes, not known values. {@code user:password@} userinfo without a scheme, e-mail addresses,
 * {@code host=}/{@code Host:} values, IPv4 addresses (a {@code version} number excepted) and bracketed IPv6 ones,
 * a name with a port ({@code ch-1:9000}, {@code db.corp:8123}) and a dotted name of three or more labels ending in a
 * letter label ({@code ch.prod.internal}) become placeholders; then the text is cut to {@value #MAX_CHARS} characters.
 * A one-dot name without a port ({@code analytics.orders}) is kept: it cannot be told from a table name. Every pattern
 * has bounded repetition and a cheap guard, like {@link RedactionPatterns}.
 */
final class ServerTextPatterns {
    /** The longest server text a report or log line carries. */
    static final int MAX_CHARS = 2_000;
    static final String EMAIL_PLACEHOLDER = "<redacted:email>";

    private static final Pattern USERINFO = Pattern.compile(
        "(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,128}:[^\\s@/:\"'`]{1,256}@");
    private static final Pattern EMAIL = Pattern.compile(
        "(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\\.[A-Za-z0-9-]{1,63}){1,8}");
    private static final Pattern HOST_KEY = Pattern.compile(
        "(?<![A-Za-z0-9_])(host(?:name)?[\"']?[ \\t]*[:=][ \\t]*[\"']?)[^\\s\"',;()\\[\\]]+", Pattern.CASE_INSENSITIVE);
    private static final Pattern IPV4 = Pattern.compile(
        "(?<![0-9A-Za-z.])(?<!version )(?:[0-9]{1,3}\\.){3}[0-9]{1,3}(?::[0-9]{1,5})?(?![0-9A-Za-z]|\\.[0-9])");
    private static final Pattern IPV6 = Pattern.compile("\\[[0-9A-Fa-f:.]{2,45}\\](?::[0-9]{1,5})?");
    private static final Pattern NAME_WITH_PORT = Pattern.compile(
        "(?<![A-Za-z0-9._-])[A-Za-z][A-Za-z0-9-]{0,62}(?:\\.[A-Za-z0-9-]{1,63}){0,8}:[0-9]{2,5}(?![0-9A-Za-z])");
    private static final Pattern DOTTED_NAME = Pattern.compile(
        "(?<![A-Za-z0-9._-])[A-Za-z0-9][A-Za-z0-9-]{0,62}(?:\\.[A-Za-z0-9-]{1,63}){1,7}\\.[A-Za-z]{2,24}"
            + "(?![A-Za-z0-9_-]|\\.[A-Za-z0-9])");

    private ServerTextPatterns() {
    }

    /** {@code s} (already through the catalogue) with hosts, userinfo and e-mail addresses masked, then capped. */
    static String scrub(String s) {
        if (s.indexOf('@') >= 0) {
            s = USERINFO.matcher(s).replaceAll(Matcher.quoteReplacement(Redactor.MASK + "@"));
            s = EMAIL.matcher(s).replaceAll(Matcher.quoteReplacement(EMAIL_PLACEHOLDER));
        }
        if (s.toLowerCase(Locale.ROOT).contains("host")) {
            s = HOST_KEY.matcher(s).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + Redactor.HOST_PLACEHOLDER));
        }
        if (s.indexOf('.') >= 0) {
            s = IPV4.matcher(s).replaceAll(Matcher.quoteReplacement(Redactor.HOST_PLACEHOLDER));
        }
        if (s.indexOf('[') >= 0) {
            s = IPV6.matcher(s).replaceAll(m -> m.group().indexOf(':') >= 0
                ? Matcher.quoteReplacement(Redactor.HOST_PLACEHOLDER) : Matcher.quoteReplacement(m.group()));
        }
        if (s.indexOf(':') >= 0) {
            s = NAME_WITH_PORT.matcher(s).replaceAll(Matcher.quoteReplacement(Redactor.HOST_PLACEHOLDER));
        }
        if (s.indexOf('.') >= 0) {
            s = DOTTED_NAME.matcher(s).replaceAll(m -> dottedName(m.group()));
        }
        return cap(s);
    }

    /** A dotted name of three or more labels is a host; two labels ({@code db.table}) stay. */
    private static String dottedName(String name) {
        int dots = 0;
        for (int i = 0; i < name.length(); i++) {
            dots += name.charAt(i) == '.' ? 1 : 0;
        }
        return Matcher.quoteReplacement(dots >= 2 ? Redactor.HOST_PLACEHOLDER : name);
    }

    private static String cap(String s) {
        if (s.length() <= MAX_CHARS) {
            return s;
        }
        int end = Character.isHighSurrogate(s.charAt(MAX_CHARS - 1)) ? MAX_CHARS - 1 : MAX_CHARS;
        return s.substring(0, end) + "... (" + (s.length() - end) + " more characters)";
    }
}
