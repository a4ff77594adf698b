package io.dpone.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.POJONode;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Writes a (mutated) tree as block YAML or as indented JSON, with what a tree cannot hold: a key written twice
 * ({@link #duplicateFirstKeyOf}), YAML anchors on nodes ({@link #anchor}) and {@link Raw} text where a value goes.
 */
final class FuzzWriter {
    private static final Pattern PLAIN_KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private final Map<JsonNode, String> anchors = new IdentityHashMap<>();
    private JsonNode duplicated;

    /** The object whose first key is written twice (the second time with the same value). */
    FuzzWriter duplicateFirstKeyOf(JsonNode object) {
        this.duplicated = object;
        return this;
    }

    /** Writes {@code &name} before {@code node} (YAML only). */
    FuzzWriter anchor(JsonNode node, String name) {
        anchors.put(node, name);
        return this;
    }

    String yaml(JsonNode root) {
        StringBuilder sb = new StringBuilder();
        if (root.isObject() && root.size() > 0 && !anchors.containsKey(root)) {
            block(root, 0, sb);
        } else {
            flow(root, sb, true);
            sb.append('\n');
        }
        return sb.toString();
    }

    String json(JsonNode root) {
        StringBuilder sb = new StringBuilder();
        pretty(root, 0, sb);
        sb.append('\n');
        return sb.toString();
    }

    private void block(JsonNode object, int indent, StringBuilder sb) {
        boolean first = true;
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            int times = first && object == duplicated ? 2 : 1;
            first = false;
            for (int t = 0; t < times; t++) {
                sb.append(" ".repeat(indent)).append(key(e.getKey(), true)).append(':');
                JsonNode v = e.getValue();
                if (v.isObject() && v.size() > 0) {
                    String anchor = anchors.get(v);
                    if (anchor != null) {
                        sb.append(" &").append(anchor);
                    }
                    sb.append('\n');
                    block(v, indent + 2, sb);
                } else {
                    sb.append(' ');
                    flow(v, sb, true);
                    sb.append('\n');
                }
            }
        }
    }

    private void flow(JsonNode v, StringBuilder sb, boolean yaml) {
        String anchor = yaml ? anchors.get(v) : null;
        if (anchor != null) {
            sb.append("&").append(anchor).append(' ');
        }
        if (v instanceof POJONode p && p.getPojo() instanceof Raw r) {
            sb.append(r.text());
        } else if (v.isObject()) {
            sb.append('{');
            boolean first = true;
            for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                int times = first && v == duplicated ? 2 : 1;
                for (int t = 0; t < times; t++) {
                    if (!first || t > 0) {
                        sb.append(", ");
                    }
                    sb.append(key(e.getKey(), yaml)).append(": ");
                    flow(e.getValue(), sb, yaml);
                }
                first = false;
            }
            sb.append('}');
        } else if (v.isArray()) {
            sb.append('[');
            for (int i = 0; i < v.size(); i++) {
                sb.append(i == 0 ? "" : ", ");
                flow(v.get(i), sb, yaml);
            }
            sb.append(']');
        } else if (v.isTextual()) {
            sb.append(quote(v.asText()));
        } else if (v.isMissingNode()) {
            sb.append("");
        } else {
            sb.append(v.toString());
        }
    }

    private void pretty(JsonNode v, int indent, StringBuilder sb) {
        if (v.isObject() && v.size() > 0) {
            sb.append("{\n");
            boolean first = true;
            for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                int times = first && v == duplicated ? 2 : 1;
                for (int t = 0; t < times; t++) {
                    if (!first || t > 0) {
                        sb.append(",\n");
                    }
                    sb.append(" ".repeat(indent + 2)).append(quote(e.getKey())).append(": ");
                    pretty(e.getValue(), indent + 2, sb);
                }
                first = false;
            }
            sb.append('\n').append(" ".repeat(indent)).append('}');
        } else if (v.isArray() && v.size() > 0 && indent < 4) {
            sb.append("[\n");
            for (int i = 0; i < v.size(); i++) {
                sb.append(i == 0 ? "" : ",\n").append(" ".repeat(indent + 2));
                pretty(v.get(i), indent + 2, sb);
            }
            sb.append('\n').append(" ".repeat(indent)).append(']');
        } else {
            flow(v, sb, false);
        }
    }

    private static String key(String k, boolean yaml) {
        return yaml && PLAIN_KEY.matcher(k).matches() ? k : quote(k);
    }

    /** A double-quoted string, valid in JSON and YAML: control and YAML line-break characters escaped. */
    static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20 || c == 0x7f || c == 0x85 || c == 0x2028 || c == 0x2029 || c == 0xfeff) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append('"').toString();
    }
}
