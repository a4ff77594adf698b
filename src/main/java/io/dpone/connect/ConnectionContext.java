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
    /** Where the aliases came from, for messages: the variable and its file, a file, or the embedded default. */
    private final String origin;

    private ConnectionContext(Map<String, ContextEntry> entries, boolean embeddedDefault) {
        this(entries, embeddedDefault, embeddedDefault ? EMBEDDED_ORIGIN : "the connection context given in code");
    }

    private ConnectionContext(Map<String, ContextEntry> entries, boolean embeddedDefault, String origin) {
        this.entries = Map.copyOf(entries);
        this.embeddedDefault = embeddedDefault;
        this.origin = origin;
        // third-party messages name hosts without their URL (Connect to host:port, host X, port N): mask them too
        for (ContextEntry e : this.entries.values()) {
            Redactor.global().registerEndpoint(e.url());
            e.options().values().forEach(v -> Redactor.global().registerEndpoint(String.valueOf(v)));
        }
    }

    /** System property equivalent of {@link #ENV} (for embedding applications and tests); the property wins. */
    public static final String PROPERTY = "dpone.runtime.connection.context";

    static final String EMBEDDED_ORIGIN = "the embedded default (" + ENV + " is not set)";

    /** The context for this process: the file named by the environment, else the embedded default. */
    public static ConnectionContext fromEnvironment() {
        String property = System.getProperty(PROPERTY);
        String file = property != null ? property : System.getenv(ENV);
        if (file == null || file.isBlank()) {
            return EmbeddedDefaults.context();
        }
        return load(Path.of(file), "the file '" + file + "' named by " + (property != null ? PROPERTY : ENV));
    }

    /** A context from entries already in hand (tests, embedding applications). */
    public static ConnectionContext of(Map<String, ContextEntry> entries, boolean embeddedDefault) {
        return new ConnectionContext(entries, embeddedDefault);
    }

    /** The largest context file read: 1 MiB (a context holds a few aliases); a larger file is refused unread. */
    public static final int MAX_BYTES = 1024 * 1024;

    /** Loads and validates a context file; every problem is reported at once. */
    public static ConnectionContext load(Path file) {
        return load(file, "the file '" + file + "'");
    }

    /** As {@link #load(Path)}; {@code origin} says how the file was named ("the file 'x' named by VAR"). */
    static ConnectionContext load(Path file, String origin) {
        String text;
        try {
            text = BoundedFile.readUtf8(file, MAX_BYTES);
        } catch (BoundedFile.TooLarge e) {
            throw new DponeException(BlockerCode.CONNECTION_CONTEXT_TOO_LARGE, "$",
                "connection context file holds more than " + MAX_BYTES + " bytes; it was not read");
        } catch (java.nio.file.NoSuchFileException e) {
            throw invalid("$", "connection context: " + origin + " does not exist; create it (docs/connections.md) "
                + "or unset " + ENV + " to use the embedded default");
        } catch (BoundedFile.NotRegular e) {
            throw invalid("$", "connection context: " + origin + (java.nio.file.Files.isDirectory(file)
                ? " cannot be read (it is a directory)"
                : " is not a regular file (a FIFO, a device or a socket); it was not opened"));
        } catch (IOException | RuntimeException e) {
            throw invalid("$", "connection context: " + origin + " cannot be read"
                + (java.nio.file.Files.isDirectory(file) ? " (it is a directory)" : " (permissions?)"));
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
        return new ConnectionContext(entries, false, origin);
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
        String url = node.path("url").asText(null);
        String user = node.path("user").asText(null);
        if (embedded && (url == null || url.isBlank())) {
            // {type: ..., embedded: true} is the embedded default's engine of that type under $DPONE_HOME, so a
            // context keeps mssql_demo and clickhouse_default with one line each (docs/connections.md)
            ContextEntry builtIn = EmbeddedDefaults.context().entry(switch (type) {
                case MSSQL -> EmbeddedDefaults.SOURCE_ALIAS;
                case CLICKHOUSE -> EmbeddedDefaults.CLICKHOUSE_ALIAS;
                case S3 -> EmbeddedDefaults.S3_ALIAS;
            }).orElseThrow();
            if (type == ConnectionType.MSSQL) {
                url = builtIn.url();
                user = user == null ? builtIn.user() : user;
                embedded = builtIn.embedded(); // the demo source is an H2 URL like any other to the source side
            }
            builtIn.options().forEach(options::putIfAbsent);
        }
        return Optional.of(new ContextEntry(alias, type, url, user,
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
            return Optional.of(unknown(alias, expected, subject));
        }
        if (e.type() != expected) {
            return Optional.of(Blocker.of(BlockerCode.CONNECTION_TYPE_MISMATCH, subject,
                "connection_ref '" + alias + "' is of type " + e.type().wireName() + ", expected "
                    + expected.wireName()));
        }
        return Optional.empty();
    }

    /** Where this context's aliases came from: the variable and its file, a file, or the embedded default. */
    public String origin() {
        return origin;
    }

    /**
     * {@code connection.ref_unknown} that says the next step: the aliases this context defines (with their types),
     * the closest name when one is a typo away, and where the context came from.
     */
    public Blocker unknown(String alias, ConnectionType expected, String subject) {
        List<String> defined = entries.values().stream().sorted(java.util.Comparator.comparing(ContextEntry::alias))
            .map(c -> c.alias() + " (" + (c.type() == null ? "?" : c.type().wireName()) + ")").toList();
        String closest = entries.keySet().stream().filter(a -> expected == null || entries.get(a).type() == expected)
            .filter(a -> Aliases.distance(a, alias) <= 2).min(java.util.Comparator.comparingInt(
                (String a) -> Aliases.distance(a, alias)).thenComparing(a -> a)).orElse(null);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("defined_aliases", entries.keySet().stream().sorted().toList());
        details.put("context_origin", origin);
        return Blocker.of(BlockerCode.CONNECTION_REF_UNKNOWN, subject, "connection_ref '" + alias
            + "' is not defined in the runtime connection context, " + origin + "; "
            + (closest != null ? "did you mean '" + closest + "'? " : "")
            + (defined.isEmpty() ? "it defines no alias" : "it defines " + String.join(", ", defined))
            + (embeddedDefault ? "; set " + ENV + " to a context file for other connections"
                : "; add the alias there or name another context file in " + ENV), details);
    }

    /** Resolves {@code alias} to a usable spec, reading its credential. */
    public ConnectionSpec resolve(String alias, ConnectionType expected, String subject) {
        check(alias, expected, subject).ifPresent(b -> {
            throw new DponeException(b);
        });
        return CredentialResolver.resolve(entries.get(alias), subject);
    }
}
