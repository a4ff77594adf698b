package io.dpone.connect;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The single redaction layer. Every report, log line, exception message and captured stdout/stderr text passes
 * through {@link #redact(String)} (or {@link #redactValue(Object)} / {@link #describe(Throwable)}) before it leaves
 * the process.
 *
 * <p>Rules, applied in this order:
 * <ol>
 *   <li>registered secret values (see {@link Secret#of}) become {@code ***}, longest first; then the hosts of the
 *       connection context's endpoints ({@link #registerEndpoint}) become {@code <redacted:host>} wherever they appear,
 *       also without a scheme ({@code Connect to 10.0.0.5:8123 [/10.0.0.5]}, {@code host db.corp, port 1433}, a
 *       bare {@code UnknownHostException} name), as third-party messages print them;</li>
 *   <li>JDBC URLs ({@code jdbc:...} up to whitespace or a quote) become {@code <redacted:jdbc-url>};</li>
 *   <li>any other URL with a scheme ({@code scheme://...}) becomes {@code <redacted:url>}: endpoints, userinfo
 *       credentials and presigned query parameters all go with it; a URL whose password holds a space is covered
 *       to its closing quote, its next parameter or the end of the line ({@code UrlExtent}), never half;</li>
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
 *
 * <p>Text a server wrote passes {@link #serverText(String)}, which adds shape patterns (hosts, userinfo, e-mail
 * addresses) and a length cap to these rules.
 *
 * <p>This class is the entry point and holds the registered secrets (rule 1) and the structured-value walk; rules 2
 * to 7 are the pattern catalogue {@code RedactionPatterns}, and {@link #describe(Throwable)} is
 * {@code ThrowableDescription}.
 */
public final class Redactor {
    public static final String MASK = "***";
    public static final String URL_PLACEHOLDER = "<redacted:url>";
    public static final String JDBC_URL_PLACEHOLDER = "<redacted:jdbc-url>";
    public static final String PATH_PLACEHOLDER = "<redacted:path>";
    public static final String HOST_PLACEHOLDER = "<redacted:host>";

    private static final int MIN_SECRET_LENGTH = 4;

    /** Normalized (lower-case, alphanumerics only) key endings that mark a map value as a credential. */
    private static final List<String> CREDENTIAL_KEY_ENDINGS = List.of(
            "password", "passwords", "passwd", "passphrase", "pwd", "secret", "secrets", "token", "tokens",
            "accesskey", "accesskeyid", "secretkey", "apikey", "privatekey", "credential", "credentials",
            "authorization");

    private static final Redactor GLOBAL = new Redactor();

    private final Set<String> known = new LinkedHashSet<>();
    /** Longest first; replaced wholesale (copy-on-write) under the lock, read lock-free. */
    private volatile String[] secrets = new String[0];
    private final Set<String> knownEndpoints = new LinkedHashSet<>();
    /** {@code host:port} and hosts of registered endpoints, longest first; copy-on-write like {@link #secrets}. */
    private volatile String[] endpoints = new String[0];
    private static final java.util.regex.Pattern AUTHORITY = java.util.regex.Pattern.compile(
            "://(?:[^@/\\s]*@)?(\\[[0-9A-Fa-f:.]+\\]|[^:/;?#\\s\\[\\]]+)(?::([0-9]{1,5}))?");

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

    /**
     * Registers the host of an endpoint URL ({@code http://host:port}, {@code jdbc:sqlserver://host:port;...},
     * {@code s3://...}) and its {@code host:port}, so they are masked wherever they appear, not only inside a URL.
     * A host without a dot or colon ({@code minio}, {@code localhost}, {@code ch1}) is not registered: it cannot be
     * told from an ordinary word, and names nothing outside a private network. Null and URLs without a host are ignored.
     */
    public void registerEndpoint(String url) {
        if (url == null) {
            return;
        }
        java.util.regex.Matcher m = AUTHORITY.matcher(url);
        if (!m.find()) {
            return;
        }
        String host = m.group(1);
        String bare = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        if (bare.length() < MIN_SECRET_LENGTH || (bare.indexOf('.') < 0 && bare.indexOf(':') < 0)) {
            return;
        }
        synchronized (knownEndpoints) {
            boolean changed = knownEndpoints.add(bare);
            if (m.group(2) != null) {
                changed |= knownEndpoints.add(host + ":" + m.group(2));
                changed |= knownEndpoints.add(bare + ", port " + m.group(2));
                changed |= knownEndpoints.add(bare + " port " + m.group(2));
            }
            if (changed) {
                String[] next = knownEndpoints.toArray(new String[0]);
                Arrays.sort(next, Comparator.comparingInt(String::length).reversed());
                endpoints = next;
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
        for (String endpoint : endpoints) {
            if (s.contains(endpoint)) {
                s = s.replace(endpoint, HOST_PLACEHOLDER);
            }
        }
        return RedactionPatterns.scrub(s);
    }

    /**
     * Text a server wrote (an error body, whatever it holds): {@link #redact(String)}, then by shape, not by known
     * value: {@code user:password@}, e-mail addresses, {@code host=} values, IP addresses, names with a port and
     * dotted host names become placeholders, and the text is cut to 2,000 characters ({@code ServerTextPatterns}).
     * Null stays null.
     */
    public String serverText(String text) {
        return text == null || text.isEmpty() ? text : ServerTextPatterns.scrub(redact(text));
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
     * at most three causes, joined by {@code ": "}. A cause whose text already appears is skipped.
     * Never includes stack traces.
     */
    public String describe(Throwable t) {
        return ThrowableDescription.of(t, this);
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
}
