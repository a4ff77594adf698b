package io.dpone.connect;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The single redaction layer. Every report, log line, exception message and captured stdout/stderr text passes
 * through {@link #redact(String)} (or {@link #redactValue(Object)} / {@link #describe(Throwable)}) before it leaves
 * the process.
 *
 * <p>Rules, applied in this order:
 * <ol>
 *   <li>registered secret values (see {@link Secret#of}) become {@code ***}, longest first;</li>
 *   <li>JDBC URLs ({@code jdbc:...} up to whitespace or a quote) become {@code <redacted:jdbc-url>};</li>
 *   <li>any other URL with a scheme ({@code scheme://...}) becomes {@code <redacted:url>}: endpoints, userinfo
 *       credentials and presigned query parameters all go with it;</li>
 *   <li>{@code Authorization: Bearer|Basic|... value} and bare {@code Bearer value} tokens: the value becomes
 *       {@code ***};</li>
 *   <li>credential {@code key=value} / {@code key: value} pairs (password, pwd, secret, token, access_key,
 *       secret_key, accessKeyId, secretAccessKey, api_key, X-Amz-Signature, X-Amz-Credential, ...; case-insensitive,
 *       optional quotes; also {@code --password value} flags): the value becomes {@code ***};</li>
 *   <li>AWS access key ids ({@code AKIA}/{@code ASIA} + 16) and 40-character AWS-secret-shaped tokens become
 *       {@code ***};</li>
 *   <li>absolute local paths with at least two segments ({@code /tmp/x/y}, {@code ~/.cache/x}, {@code C:\x})
 *       become {@code <redacted:path>}; relative text such as {@code rows/s} or {@code a/b} is left alone.</li>
 * </ol>
 *
 * <p>Why hand-written: no library covers this rule set in one place. Logging-backend maskers (logback/log4j
 * replace patterns) only see log events, not reports, exception text or child-process output; Camel's
 * {@code URISupport.sanitizeUri} masks userinfo and a few query parameters but keeps the endpoint; nothing
 * off-the-shelf knows the secrets this process resolved at runtime. The patterns are precompiled, use bounded or
 * single-character-class repetition only (no nested quantifiers, no repeated alternation groups), and are guarded
 * by cheap substring checks, so a log line costs a few linear scans and cannot backtrack catastrophically.
 */
public final class Redactor {
    public static final String MASK = "***";
    public static final String URL_PLACEHOLDER = "<redacted:url>";
    public static final String JDBC_URL_PLACEHOLDER = "<redacted:jdbc-url>";
    public static final String PATH_PLACEHOLDER = "<redacted:path>";

    private static final int MIN_SECRET_LENGTH = 4;
    private static final int MAX_CAUSES = 3;

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
    private static final Pattern AWS_KEY_ID = Pattern.compile("(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])");
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

    /** Normalized (lower-case, alphanumerics only) key endings that mark a map value as a credential. */
    private static final List<String> CREDENTIAL_KEY_ENDINGS = List.of(
            "password", "passwords", "passwd", "passphrase", "pwd", "secret", "secrets", "token", "tokens",
            "accesskey", "accesskeyid", "secretkey", "apikey", "privatekey", "credential", "credentials",
            "authorization");

    private static final Redactor GLOBAL = new Redactor();

    private final Set<String> known = new LinkedHashSet<>();
    /** Longest first; replaced wholesale (copy-on-write) under the lock, read lock-free. */
    private volatile String[] secrets = new String[0];

    /** Package-private: production code uses {@link #global()}; tests may build an isolated instance. */
    Redactor() {
    }

    /** The process-wide instance. */
    public static Redactor global() {
        return GLOBAL;
    }

    /** Registers a known secret value; null, blank and values shorter than 4 characters are ignored. */
    public void registerSecret(String value) {
        if (value == null || value.length() < MIN_SECRET_LENGTH || value.isBlank()) {
            return;
        }
        synchronized (known) {
            boolean changed = known.add(value);
            String encoded = URLEncoder.encode(value, StandardCharsets.UTF_8);
            if (!encoded.equals(value)) {
                changed |= known.add(encoded);
            }
            if (changed) {
                String[] next = known.toArray(new String[0]);
                Arrays.sort(next, Comparator.comparingInt(String::length).reversed());
                secrets = next;
            }
        }
    }

    /** Returns {@code text} with secrets, endpoints, credentials and local paths masked; null stays null. */
    public String redact(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String s = text;
        for (String secret : secrets) {
            if (s.contains(secret)) {
                s = s.replace(secret, MASK);
            }
        }
        String lower = s.toLowerCase(Locale.ROOT);
        if (lower.contains("jdbc:")) {
            s = JDBC_URL.matcher(s).replaceAll(Matcher.quoteReplacement(JDBC_URL_PLACEHOLDER));
        }
        if (s.contains("://")) {
            s = URL.matcher(s).replaceAll(m -> Matcher.quoteReplacement(internalCamelUri(m.group()) ? m.group()
                : URL_PLACEHOLDER + trailingPunctuation(m.group())));
        }
        if (lower.contains("authorization")) {
            s = AUTH_HEADER.matcher(s).replaceAll(m -> Matcher.quoteReplacement(
                    m.group(1) + (m.group(2) == null ? "" : m.group(2) + " ") + MASK));
        }
        if (lower.contains("bearer")) {
            s = BEARER.matcher(s).replaceAll("$1 " + Matcher.quoteReplacement(MASK));
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
            s = AWS_KEY_ID.matcher(s).replaceAll(Matcher.quoteReplacement(MASK));
        }
        if (s.length() >= 40) {
            s = AWS_SECRET_SHAPE.matcher(s).replaceAll(m -> Matcher.quoteReplacement(
                    looksLikeSecret(m.group()) ? MASK : m.group()));
        }
        if (s.indexOf(':') >= 0) {
            s = WINDOWS_PATH.matcher(s).replaceAll(Matcher.quoteReplacement(PATH_PLACEHOLDER));
        }
        if (s.indexOf('/') >= 0) {
            s = UNIX_PATH.matcher(s).replaceAll(m -> Matcher.quoteReplacement(
                    m.group().startsWith(SERVED_PATH_PREFIX) ? m.group() : PATH_PLACEHOLDER));
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

    /**
     * Recursively redacts a structured value: strings are {@link #redact redacted}; maps keep their keys (in order)
     * but a credential-looking key masks its value whatever it is; lists, sets and arrays are rebuilt; numbers,
     * booleans, enums, temporals, UUIDs and null are returned as-is; any other object becomes its redacted
     * {@code toString()}. Always returns new collections.
     */
    public Object redactValue(Object value) {
        if (value == null || value instanceof Number || value instanceof Boolean || value instanceof Character
                || value instanceof Enum<?> || value instanceof TemporalAccessor || value instanceof UUID) {
            return value;
        }
        if (value instanceof CharSequence text) {
            return redact(text.toString());
        }
        if (value instanceof Secret) {
            return MASK;
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                out.put(e.getKey(), isCredentialKey(e.getKey()) ? MASK : redactValue(e.getValue()));
            }
            return out;
        }
        if (value instanceof Set<?> set) {
            Set<Object> out = new LinkedHashSet<>();
            for (Object item : set) {
                out.add(redactValue(item));
            }
            return out;
        }
        if (value instanceof Collection<?> items) {
            List<Object> out = new ArrayList<>(items.size());
            for (Object item : items) {
                out.add(redactValue(item));
            }
            return out;
        }
        if (value instanceof Object[] array) {
            return redactValue(Arrays.asList(array));
        }
        return redact(String.valueOf(value));
    }

    /**
     * A one-line, redacted description of {@code t}: its message (or simple class name when there is none), then
     * at most {@value #MAX_CAUSES} causes, joined by {@code ": "}. A cause whose text already appears is skipped.
     * Never includes stack traces.
     */
    public String describe(Throwable t) {
        if (t == null) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Throwable current = t;
        for (int depth = 0; current != null && depth <= MAX_CAUSES && seen.add(current); depth++) {
            String part = redact(messageOf(current));
            if (out.indexOf(part) < 0) {
                if (out.length() > 0) {
                    out.append(": ");
                }
                out.append(part);
            }
            current = current.getCause();
        }
        return out.toString();
    }

    /** True when a map key names a credential value (password, secret, token, access key, authorization, ...). */
    static boolean isCredentialKey(Object key) {
        if (key == null) {
            return false;
        }
        StringBuilder normalized = new StringBuilder();
        for (char c : String.valueOf(key).toLowerCase(Locale.ROOT).toCharArray()) {
            if (Character.isLetterOrDigit(c)) {
                normalized.append(c);
            }
        }
        String name = normalized.toString();
        for (String ending : CREDENTIAL_KEY_ENDINGS) {
            if (name.endsWith(ending)) {
                return true;
            }
        }
        return false;
    }

    private static String messageOf(Throwable t) {
        String message = t.getMessage();
        if (message != null && !message.isBlank()) {
            return message;
        }
        String simple = t.getClass().getSimpleName();
        return simple.isEmpty() ? t.getClass().getName() : simple;
    }

    private static boolean mayHoldCredentialKey(String lower) {
        return lower.contains("pass") || lower.contains("pwd") || lower.contains("secret") || lower.contains("token")
                || lower.contains("key") || lower.contains("credential") || lower.contains("signature");
    }

    /** Keeps the quotes of a quoted value so JSON-ish text stays well-formed. */
    private static String masked(String value) {
        char first = value.charAt(0);
        return first == '"' || first == '\'' ? first + MASK + first : MASK;
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
