package io.dpone.connect;

import java.util.Map;

/**
 * One resolved connection alias. {@code password} is resolved from {@code password_env} or {@code password_file}
 * and registered with the {@link Redactor} the moment it is read; it never appears in manifests.
 * For an embedded alias, {@code options.path} names the embedded engine's data directory. {@code credentialSource}
 * says where the password came from for messages ({@code password_env NAME}, {@code password_file 'path'}), never
 * the password; null when unknown.
 */
public record ConnectionSpec(String alias, ConnectionType type, String url, String user, Secret password,
                             boolean embedded, Map<String, String> options, String credentialSource) {
    public ConnectionSpec {
        options = options == null ? Map.of() : Map.copyOf(options);
    }

    /** A spec whose credential source is not known (tests, embedding applications). */
    public ConnectionSpec(String alias, ConnectionType type, String url, String user, Secret password,
                          boolean embedded, Map<String, String> options) {
        this(alias, type, url, user, password, embedded, options, null);
    }

    public String option(String key, String fallback) {
        return options.getOrDefault(key, fallback);
    }

    @Override
    public String toString() {
        return "ConnectionSpec[" + alias + ", " + type.wireName() + (embedded ? ", embedded" : "") + "]";
    }
}
