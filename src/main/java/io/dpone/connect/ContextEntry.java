package io.dpone.connect;

import java.util.Map;

/** One alias as written in the context file, credentials still unresolved (only their source is named). */
public record ContextEntry(String alias, ConnectionType type, String url, String user, String passwordEnv,
                           String passwordFile, boolean embedded, Map<String, String> options) {
    public ContextEntry {
        options = options == null ? Map.of() : Map.copyOf(options);
    }
}
