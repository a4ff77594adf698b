package io.dpone.connect;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The pattern catalogue of {@link Redactor}: rules 2 to 7 of its list (JDBC URLs, other URLs, authorization
 * headers and bearer tokens, credential key/value pairs and CLI flags, AWS key shapes, absolute local paths), each
 * precompiled and guarded by a cheap substring check, applied in that order. A URL's placeholder covers the whole URL
 * even when a password in it holds a space ({@link UrlExtent}).
 */
final class RedactionPatterns {
    /**
     * Words that, ending a key name, mean the value is a credential: password, passwd, passphrase, pwd, private_key,
     * secret, secret_key, secret_access_key, signature, token, credential(s), access_key(_id), api_key. Factored by
     * first letter so a failed position costs one character test.
     */
    private static final String CREDENTIAL_WORD = "(?:p(?:ass(?:word|wd|phrase)|wd|rivate[_-]?key)"
            + "|s(?:ecret(?:[_-]?access)?(?:[_-]?key)?|ignature)|token|credentials?"
            + "|a(?:ccess[_-]?key(?:[_-]?id)?|pi[_-]?key))";

    private static final Pattern JDBC_URL =
            Pattern.compile("(?<![A-Za-z0-9])jdbc:[^\\s\"'`]+", Pattern.CASE_INSENSITIVE);
    private static final Pattern URL =
            Pattern.compile("(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,31}://[^\\s\"'`<>]*");
    private static final Pattern AUTH_HEADER = Pattern.compile(
            "(?<![A-Za-z0-9])((?:proxy-)?authorization[\"']?[ \\t]*[:=][ \\t]*[\"']?)"
                    + "(?:(bearer|basic|digest|negotiate|token|aws4-hmac-sha256)[ \\t]+)?[^\\s\"',;]+",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern BEARER =
            Pattern.compile("(?<![A-Za-z0-9])(Bearer|BEARER)[ \\t]+[A-Za-z0-9._~+/=-]{6,}");
    /** Anchored on the credential word; any key prefix ({@code sink.}, {@code aws_}, {@code X-Amz-}) stays as text. */
    private static final Pattern KEY_VALUE = Pattern.compile(
            "(" + CREDENTIAL_WORD + "[\"']?[ \\t]*[:=][ \\t]*)"
                    + "(\"[^\"\\r\\n]{0,1024}\"|'[^'\\r\\n]{0,1024}'|[^\\s,;&\"'`]+)",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern CLI_FLAG = Pattern.compile(
            "(?<![A-Za-z0-9_-])(--[A-Za-z0-9-]{0,40}?" + CREDENTIAL_WORD + ")([ \\t]+)"
                    + "(\"[^\"\\r\\n]{0,1024}\"|'[^'\\r\\n]{0,1024}'|[^\\s\"'`-][^\\s\"'`]*)",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern AWS_KEY_ID =
            Pattern.compile("(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])");
    private static final Pattern AWS_SECRET_SHAPE =
            Pattern.compile("(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])");
    private static final Pattern WINDOWS_PATH =
            Pattern.compile("(?<![A-Za-z0-9])[A-Za-z]:[\\\\/][^\\s\"'`<>|:;,*?]+");
    /** {@code /seg/rest}: first segment has no slash, the rest must be non-empty, so one-segment text is kept. */
    private static final Pattern UNIX_PATH = Pattern.compile(
            "(?<![A-Za-z0-9_.~/\\\\-])~?/[^\\s/\"'`<>|:;,()\\[\\]{}*?]+/[^\\s\"'`<>|:;,()\\[\\]{}*?]+");

    /** Camel components that only ever address something inside this process. */
    private static final Set<String> INTERNAL_SCHEMES = Set.of("timer", "direct", "seda", "quartz", "scheduler");
    /** The HTTP paths {@code dpone serve} serves: public paths, not local files. */
    private static final String SERVED_PATH_PREFIX = "/observe/";

    private RedactionPatterns() {
    }

    /** Returns {@code s} with endpoints, credentials and local paths masked (registered secrets are not seen here). */
    static String scrub(String s) {
        String lower = s.toLowerCase(Locale.ROOT);
        if (lower.contains("jdbc:")) {
            s = UrlExtent.replace(s, JDBC_URL, true, url -> false, url -> Redactor.JDBC_URL_PLACEHOLDER);
        }
        if (s.contains("://")) {
            s = UrlExtent.replace(s, URL, false, RedactionPatterns::internalCamelUri,
                url -> Redactor.URL_PLACEHOLDER + trailingPunctuation(url));
        }
        if (lower.contains("authorization")) {
            s = AUTH_HEADER.matcher(s).replaceAll(m -> Matcher.quoteReplacement(
                    m.group(1) + (m.group(2) == null ? "" : m.group(2) + " ") + Redactor.MASK));
        }
        if (lower.contains("bearer")) {
            s = BEARER.matcher(s).replaceAll("$1 " + Matcher.quoteReplacement(Redactor.MASK));
        }
        if (mayHoldCredentialKey(lower)) {
            s = KEY_VALUE.matcher(s).replaceAll(m -> Matcher.quoteReplacement(
                    m.group(1) + masked(m.group(2))));
            if (s.contains("--")) {
                s = CLI_FLAG.matcher(s).replaceAll(m -> Matcher.quoteReplacement(
                        m.group(1) + m.group(2) + masked(m.group(3))));
            }
        }
        if (s.contains("AKIA") || s.contains("ASIA")) {
            s = AWS_KEY_ID.matcher(s).replaceAll(Matcher.quoteReplacement(Redactor.MASK));
        }
        if (s.length() >= 40) {
            s = AWS_SECRET_SHAPE.matcher(s).replaceAll(m -> Matcher.quoteReplacement(
                    looksLikeSecret(m.group()) ? Redactor.MASK : m.group()));
        }
        if (s.indexOf(':') >= 0) {
            s = WINDOWS_PATH.matcher(s).replaceAll(Matcher.quoteReplacement(Redactor.PATH_PLACEHOLDER));
        }
        if (s.indexOf('/') >= 0) {
            s = UNIX_PATH.matcher(s).replaceAll(m -> Matcher.quoteReplacement(
                    m.group().startsWith(SERVED_PATH_PREFIX) ? m.group() : Redactor.PATH_PLACEHOLDER));
        }
        return s;
    }

    /**
     * In-process Camel endpoint URIs ({@code timer://job}, {@code direct://x}, ...) name no host, credential or
     * file (Camel uses them in thread and route names); every other scheme is masked.
     */
    private static boolean internalCamelUri(String uri) {
        int colon = uri.indexOf(':');
        return colon > 0 && INTERNAL_SCHEMES.contains(uri.substring(0, colon).toLowerCase(Locale.ROOT));
    }

    private static boolean mayHoldCredentialKey(String lower) {
        return lower.contains("pass") || lower.contains("pwd") || lower.contains("secret") || lower.contains("token")
                || lower.contains("key") || lower.contains("credential") || lower.contains("signature");
    }

    /** Keeps the quotes of a quoted value so JSON-ish text stays well-formed. */
    private static String masked(String value) {
        char first = value.charAt(0);
        return first == '"' || first == '\'' ? first + Redactor.MASK + first : Redactor.MASK;
    }

    /** Sentence punctuation glued to the end of a URL is kept outside the placeholder. */
    private static String trailingPunctuation(String url) {
        int end = url.length();
        while (end > 0 && ".,;:!?)]}".indexOf(url.charAt(end - 1)) >= 0) {
            end--;
        }
        return url.substring(end);
    }

    /** AWS secret access keys are 40 chars of mixed case and digits; lower-case hex digests are not matched. */
    private static boolean looksLikeSecret(String token) {
        boolean upper = false;
        boolean lowerCase = false;
        boolean digit = false;
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            upper |= Character.isUpperCase(c);
            lowerCase |= Character.isLowerCase(c);
            digit |= Character.isDigit(c);
        }
        return upper && lowerCase && digit;
    }
}
