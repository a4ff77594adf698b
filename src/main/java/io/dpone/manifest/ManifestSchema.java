package io.dpone.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonNodePath;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * The published JSON Schema of batch manifests ({@code schema/batch-manifest.schema.json}, copied to
 * {@code docs/}) and the mapping of its violations to stable blocker codes with manifest paths.
 */
public final class ManifestSchema {
    public static final String RESOURCE = "/schema/batch-manifest.schema.json";
    private static final JsonSchema SCHEMA = load();

    private ManifestSchema() {
    }

    private static JsonSchema load() {
        try (InputStream in = ManifestSchema.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("manifest schema resource missing");
            }
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every schema violation in {@code document} as a blocker, ordered by manifest path. */
    public static List<Blocker> validate(JsonNode document, Set<String> ignoredPaths) {
        List<Blocker> blockers = new ArrayList<>();
        for (ValidationMessage m : SCHEMA.validate(document)) {
            Blocker b = toBlocker(m);
            if (b != null && !ignoredPaths.contains(b.subject())) {
                blockers.add(b);
            }
        }
        blockers.sort(Comparator.comparing(Blocker::subject).thenComparing(Blocker::code));
        return dedupe(blockers);
    }

    private static Blocker toBlocker(ValidationMessage m) {
        String at = path(m.getInstanceLocation());
        String type = m.getType();
        return switch (type) {
            case "additionalProperties" -> Blocker.of(BlockerCode.MANIFEST_UNKNOWN_KEY, join(at, m.getProperty()),
                "unknown key '" + m.getProperty() + "'");
            case "required" -> Blocker.of(BlockerCode.MANIFEST_MISSING_FIELD, join(at, m.getProperty()),
                "required key '" + m.getProperty() + "' is missing");
            case "type" -> Blocker.of(BlockerCode.MANIFEST_WRONG_TYPE, at, "wrong type: " + expected(m));
            case "pattern" -> isIdentifier(m)
                ? Blocker.of(BlockerCode.MANIFEST_INVALID_IDENTIFIER, at,
                    "not a valid identifier (letters, digits and '_', not starting with a digit)")
                : Blocker.of(BlockerCode.MANIFEST_INVALID_VALUE, at, "value does not match the required format");
            case "enum" -> Blocker.of(BlockerCode.MANIFEST_INVALID_VALUE, at,
                "value must be one of " + m.getSchemaNode());
            default -> Blocker.of(BlockerCode.MANIFEST_INVALID_VALUE, at, "invalid value (" + type + ")");
        };
    }

    private static boolean isIdentifier(ValidationMessage m) {
        return m.getSchemaLocation() != null && m.getSchemaLocation().toString().contains("/$defs/identifier");
    }

    private static String expected(ValidationMessage m) {
        Object[] args = m.getArguments();
        return args != null && args.length > 1 ? "expected " + args[1] + ", found " + args[0] : "see schema";
    }

    static String path(JsonNodePath location) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < location.getNameCount(); i++) {
            Object element = location.getElement(i);
            if (element instanceof Integer index) {
                out.append('[').append(index).append(']');
            } else {
                if (out.length() > 0) {
                    out.append('.');
                }
                out.append(element);
            }
        }
        return out.length() == 0 ? "$" : out.toString();
    }

    private static String join(String parent, String child) {
        return "$".equals(parent) ? child : parent + "." + child;
    }

    private static List<Blocker> dedupe(List<Blocker> blockers) {
        List<Blocker> out = new ArrayList<>();
        for (Blocker b : blockers) {
            if (out.stream().noneMatch(o -> o.code().equals(b.code()) && o.subject().equals(b.subject()))) {
                out.add(b);
            }
        }
        return out;
    }
}
