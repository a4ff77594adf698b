package io.dpone.connect;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The runtime connection context: logical aliases to connections. Loaded from the YAML file named by
 * {@code DPONE_RUNTIME_CONNECTION_CONTEXT}, or the embedded default when that is unset. Credentials come only
 * from {@code password_env} or {@code password_file}; they are resolved lazily by {@link CredentialResolver}.
 */
public final class ConnectionContext {
    public static final String ENV = "DPONE_RUNTIME_CONNECTION_CONTEXT";
    private static final Set<String> ENTRY_KEYS =
        Set.of("type", "url", "user", "password_env", "password_file", "embedded", "options");

    private final Map<String, ContextEntry> entries;
    private final boolean embeddedDefault;

    private ConnectionContext(Map<String, ContextEntry> entries, boolean embeddedDefault) {
        this.entries = Map.copyOf(entries);
        this.embeddedDefault = embeddedDefault;
        // third-party messages name hosts without their URL (Connect to host:port, host X, port N): mask them too
        for (ContextEntry e : this.entries.values()) {
            Redactor.global().registerEndpoint(e.url());
            e.options().values().forEach(v -> Redactor.global().registerEndpoint(String.valueOf(v)));
        }
    }

    /** System property equivalent of {@link #ENV} (for embedding applications and tests); the property wins. */
    public static final String PROPERTY = "dpone.runtime.connection.context";

    /** The context for this process: the file named by the environment, else the embedded default. */
    public static ConnectionContext fromEnvironment() {
        String file = System.getProperty(PROPERTY, System.getenv(ENV));
        return file == null || file.isBlank() ? EmbeddedDefaults.context() : load(Path.of(file));
    }

    /** A context from entries already in hand (tests, embedding applications). */
    public static ConnectionContext of(Map<String, ContextEntry> entries, boolean embeddedDefault) {
        return new ConnectionContext(entries, embeddedDefault);
    }

    /** The largest context file read: 1 MiB (a context holds a few aliases); a larger file is refused unread. */
    public static final int MAX_BYTES = 1024 * 1024;

    /** Loads and validates a context file; every problem is reported at once. */
    public static ConnectionContext load(Path file) {
        String text;
        try {
            text = BoundedFile.readUtf8(file, MAX_BYTES);
        } catch (BoundedFile.TooLarge e) {
            throw new DponeException(BlockerCode.CONNECTION_CONTEXT_TOO_LARGE, "$",
                "connection context file holds more than " + MAX_BYTES + " bytes; it was not read");
        } catch (BoundedFile.NotRegular e) {
            throw invalid("$", "connection context file is not a regular file (a FIFO, a device or a socket); it was "
                + "not opened");
        } catch (IOException | RuntimeException e) {
            throw invalid("$", "connection context file cannot be read");
        }
        int longLine = BoundedYaml.firstLongLine(text);
        if (longLine > 0) {
            throw new DponeException(BlockerCode.CONNECTION_CONTEXT_TOO_LARGE, "$", "connection context line "
                + longLine + " is longer than " + BoundedYaml.MAX_LINE_CHARS + " characters; it was not parsed");
        }
        JsonNode root;
        try {
            root = BoundedYaml.mapper(MAX_BYTES).readTree(text);
        } catch (StreamConstraintsException e) {
            throw new DponeException(BlockerCode.CONNECTION_CONTEXT_TOO_LARGE, "$",
                "connection context goes beyond the parser's limits (" + BoundedYaml.LIMITS + ")");
        } catch (JsonProcessingException e) {
            String original = e.getOriginalMessage();
            if (original != null && original.startsWith("Duplicate field")) {
                var at = e.getLocation();
                throw invalid("$", "connection context defines a key twice (an alias or an option)"
                    + (at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr()));
            }
            throw invalid("$", "connection context is not valid YAML");
        } catch (RuntimeException e) {
            throw invalid("$", "connection context is not valid YAML");
        }
        if (root == null || !root.path("connections").isObject()) {
            throw invalid("connections", "connection context must hold a 'connections' mapping");
        }
        List<Blocker> blockers = new ArrayList<>();
        Map<String, ContextEntry> entries = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.get("connections").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            parseEntry(e.getKey(), e.getValue(), blockers).ifPresent(entry -> entries.put(e.getKey(), entry));
        }
        if (!blockers.isEmpty()) {
            throw new DponeException(blockers);
        }
        return new ConnectionContext(entries, false);
    }

    private static Optional<ContextEntry> parseEntry(String alias, JsonNode node, List<Blocker> blockers) {
        String at = "connections." + alias;
        if (!node.isObject()) {
            blockers.add(Blocker.of(BlockerCode.CONNECTION_CONTEXT_INVALID, at, "alias must map to an object"));
            return Optional.empty();
        }
        int before = blockers.size();
        LiteralSecrets.find(alias, node, ENTRY_KEYS, blockers);
        node.fieldNames().forEachRemaining(k -> {
            if (!ENTRY_KEYS.contains(k) && !Redactor.isCredentialKey(k)) {
                blockers.add(Blocker.of(BlockerCode.CONNECTION_CONTEXT_INVALID, at + "." + k, "unknown key '" + k + "'"));
            }
        });
        ConnectionType type = null;
        try {
            type = ConnectionType.valueOf(node.path("type").asText("").toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            blockers.add(Blocker.of(BlockerCode.CONNECTION_CONTEXT_INVALID, at + ".type",
                "type must be one of mssql, clickhouse, s3"));
        }
        boolean embedded = node.path("embedded").asBoolean(false);
        if (!embedded && node.path("url").asText("").isBlank()) {
            blockers.add(Blocker.of(BlockerCode.CONNECTION_CONTEXT_INVALID, at + ".url", "url is required"));
        }
        if (node.has("password_env") && node.has("password_file")) {
            blockers.add(Blocker.of(BlockerCode.CONNECTION_CONTEXT_INVALID, at,
                "give password_env or password_file, not both"));
        }
        Map<String, String> options = new LinkedHashMap<>();
        node.path("options").fields().forEachRemaining(o -> options.put(o.getKey(), o.getValue().asText()));
        if (blockers.size() > before) {
            return Optional.empty();
        }
        return Optional.of(new ContextEntry(alias, type, node.path("url").asText(null), node.path("user").asText(null),
            node.path("password_env").asText(null), node.path("password_file").asText(null), embedded, options));
    }

    private static DponeException invalid(String subject, String message) {
        return new DponeException(BlockerCode.CONNECTION_CONTEXT_INVALID, subject, message);
    }

    /** Whether this is the built-in embedded default (no context file configured). */
    public boolean isEmbeddedDefault() {
        return embeddedDefault;
    }

    /** The unresolved entry for {@code alias}, if any. */
    public Optional<ContextEntry> entry(String alias) {
        return Optional.ofNullable(entries.get(alias));
    }

    /**
     * Checks that {@code alias} exists with the expected type; {@code subject} is the manifest path naming it.
     */
    public Optional<Blocker> check(String alias, ConnectionType expected, String subject) {
        ContextEntry e = entries.get(alias);
        if (e == null) {
            return Optional.of(Blocker.of(BlockerCode.CONNECTION_REF_UNKNOWN, subject,
                "connection_ref '" + alias + "' is not defined in the runtime connection context"));
        }
        if (e.type() != expected) {
            return Optional.of(Blocker.of(BlockerCode.CONNECTION_TYPE_MISMATCH, subject,
                "connection_ref '" + alias + "' is of type " + e.type().wireName() + ", expected "
                    + expected.wireName()));
        }
        return Optional.empty();
    }

    /** Resolves {@code alias} to a usable spec, reading its credential. */
    public ConnectionSpec resolve(String alias, ConnectionType expected, String subject) {
        check(alias, expected, subject).ifPresent(b -> {
            throw new DponeException(b);
        });
        return CredentialResolver.resolve(entries.get(alias), subject);
    }
}
