package io.dpone.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A published JSON Schema (draft 2020-12) of one of dpone's YAML documents, and the mapping of its violations to
 * typed blockers: the document's path ({@code jobs[0].schedule}), a message that names what is wrong, and the line and
 * column where the path starts ({@code details.line}, {@code details.column}). The batch manifest and the serve
 * configuration both use it, each with its own blocker codes.
 */
public final class JsonSchemaCheck {

    /** The blocker code of each kind of violation. */
    public record Codes(BlockerCode unknownKey, BlockerCode missing, BlockerCode wrongType,
                        BlockerCode invalidIdentifier, BlockerCode invalidValue) {
        /** One code for every kind. */
        public static Codes all(BlockerCode code) {
            return new Codes(code, code, code, code, code);
        }
    }

    private final JsonSchema schema;
    private final JsonNode tree;
    private final Codes codes;

    /** The schema at classpath {@code resource}. */
    public JsonSchemaCheck(String resource, Codes codes) {
        try (InputStream in = JsonSchemaCheck.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("schema resource missing: " + resource);
            }
            this.tree = new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(tree);
        this.codes = codes;
    }

    /**
     * Every violation in {@code document} as a blocker, ordered by path; paths in {@code ignored} are left out.
     * {@code locations} is asked only when there is a violation to place.
     */
    public List<Blocker> validate(JsonNode document, Set<String> ignored,
                                  java.util.function.Supplier<YamlLocations> locations) {
        List<Blocker> blockers = new ArrayList<>();
        // YAML reads a number beyond a double's range (1e309) as an infinite double, and a !!binary scalar as
        // bytes; the schema validator can compare neither with an enum, a bound or a length (a binary value
        // crashed its maxLength check): each is refused here and validated as null
        Map<String, JsonNode> nonFinite = new LinkedHashMap<>();
        JsonNode checked = withoutNonFinite(document, "", nonFinite);
        Set<String> skip = new java.util.HashSet<>(ignored);
        nonFinite.forEach((at, node) -> {
            skip.add(at);
            blockers.add(located(node.isNumber() ? Blocker.of(codes.invalidValue(), at, "not a finite number")
                : Blocker.of(codes.wrongType(), at, "wrong type: binary data is not a manifest value"),
                locations.get()));
        });
        for (ValidationMessage m : schema.validate(checked)) {
            Blocker b = toBlocker(m);
            if (!skip.contains(b.subject())) {
                blockers.add(located(b, locations.get()));
            }
        }
        blockers.sort(Comparator.comparing(Blocker::subject).thenComparing(Blocker::code));
        return dedupe(blockers);
    }

    /**
     * {@code node}, or a copy of it with each non-finite floating-point number and each non-JSON scalar (binary,
     * an embedded object) replaced by null (their paths, in the blockers' style, collected in {@code found}); the
     * document itself is never changed.
     */
    private static JsonNode withoutNonFinite(JsonNode node, String at, Map<String, JsonNode> found) {
        if ((node.isFloatingPointNumber() && !Double.isFinite(node.doubleValue()) && !node.isBigDecimal())
            || node.isBinary() || node.isPojo()) {
            found.put(at.isEmpty() ? "$" : at, node);
            return com.fasterxml.jackson.databind.node.NullNode.getInstance();
        }
        if (node.isObject()) {
            com.fasterxml.jackson.databind.node.ObjectNode copy = null;
            for (var it = node.fields(); it.hasNext(); ) {
                var e = it.next();
                JsonNode v = withoutNonFinite(e.getValue(), at.isEmpty() ? e.getKey() : at + "." + e.getKey(), found);
                if (v != e.getValue() && copy == null) {
                    copy = node.deepCopy();
                }
                if (copy != null) {
                    copy.set(e.getKey(), v);
                }
            }
            return copy == null ? node : copy;
        }
        if (node.isArray()) {
            com.fasterxml.jackson.databind.node.ArrayNode copy = null;
            for (int i = 0; i < node.size(); i++) {
                JsonNode v = withoutNonFinite(node.get(i), at + "[" + i + "]", found);
                if (v != node.get(i) && copy == null) {
                    copy = node.deepCopy();
                }
                if (copy != null) {
                    copy.set(i, v);
                }
            }
            return copy == null ? node : copy;
        }
        return node;
    }

    private static Blocker located(Blocker b, YamlLocations locations) {
        return locations.find(b.subject()).map(l -> {
            Map<String, Object> details = new LinkedHashMap<>(b.details());
            details.put("line", l.line());
            details.put("column", l.column());
            return new Blocker(b.code(), b.subject(), b.message(), details);
        }).orElse(b);
    }

    private Blocker toBlocker(ValidationMessage m) {
        String at = path(m.getInstanceLocation());
        return switch (m.getType()) {
            case "additionalProperties" -> Blocker.of(codes.unknownKey(), join(at, m.getProperty()),
                "unknown key '" + m.getProperty() + "'");
            case "required" -> Blocker.of(codes.missing(), join(at, m.getProperty()),
                "required key '" + m.getProperty() + "' is missing");
            case "type" -> Blocker.of(codes.wrongType(), at, "wrong type: " + expected(m));
            case "pattern" -> isIdentifier(m)
                ? Blocker.of(codes.invalidIdentifier(), at,
                    "not a valid identifier (letters, digits and '_', not starting with a digit)")
                : Blocker.of(codes.invalidValue(), at, "value does not match the required format ("
                    + m.getSchemaNode().asText() + ")");
            case "propertyNames" -> Blocker.of(codes.unknownKey(), join(at, m.getProperty()),
                "key '" + m.getProperty() + "' is not allowed here (" + describe(m) + ")");
            case "enum" -> Blocker.of(codes.invalidValue(), at, "value must be one of " + m.getSchemaNode());
            case "minimum" -> Blocker.of(codes.invalidValue(), at, "must be at least " + m.getSchemaNode());
            case "maximum" -> Blocker.of(codes.invalidValue(), at, "must be at most " + m.getSchemaNode());
            case "minLength" -> Blocker.of(codes.invalidValue(), at, "must not be empty");
            case "maxLength" -> Blocker.of(codes.invalidValue(), at, "must be at most " + m.getSchemaNode()
                + " characters");
            case "oneOf" -> Blocker.of(codes.invalidValue(), at, "must be " + describe(m));
            default -> Blocker.of(codes.invalidValue(), at, "invalid value (" + m.getType() + ")");
        };
    }

    /** The {@code description} of the schema that holds the violated keyword, or a pointer to the schema. */
    private String describe(ValidationMessage m) {
        String location = m.getSchemaLocation() == null ? "" : m.getSchemaLocation().getFragment().toString();
        int cut = location.lastIndexOf('/');
        JsonNode holder = cut <= 0 ? tree : tree.at(location.substring(0, cut));
        return holder.path("description").asText("as the schema describes");
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
        return child == null ? parent : "$".equals(parent) ? child : parent + "." + child;
    }

    /** The first blocker of each code and subject, in order; one pass (a document with 100,000 unknown keys is one). */
    private static List<Blocker> dedupe(List<Blocker> blockers) {
        List<Blocker> out = new ArrayList<>();
        Set<List<String>> seen = new java.util.HashSet<>();
        for (Blocker b : blockers) {
            if (seen.add(List.of(b.code(), b.subject()))) {
                out.add(b);
            }
        }
        return out;
    }
}
