package io.dpone.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** A place in a tree: the container that holds a node and the node's key or index there. */
record Slot(JsonNode parent, String key, int index, String path) {
    JsonNode node() {
        return parent instanceof ObjectNode o ? o.get(key) : parent.get(index);
    }

    void set(JsonNode value) {
        if (parent instanceof ObjectNode o) {
            o.set(key, value);
        } else {
            ((ArrayNode) parent).set(index, value);
        }
    }

    void remove() {
        if (parent instanceof ObjectNode o) {
            o.remove(key);
        } else {
            ((ArrayNode) parent).remove(index);
        }
    }

    /** Every slot under {@code holder} (a one-element array holding the document, so the root is a slot too). */
    static List<Slot> all(ArrayNode holder) {
        List<Slot> out = new ArrayList<>();
        out.add(new Slot(holder, null, 0, "$"));
        collect(holder.get(0), "", out);
        return out;
    }

    private static void collect(JsonNode container, String path, List<Slot> out) {
        if (container instanceof ObjectNode o) {
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                Slot s = new Slot(o, e.getKey(), -1, path.isEmpty() ? e.getKey() : path + "." + e.getKey());
                out.add(s);
                collect(e.getValue(), s.path(), out);
            }
        } else if (container instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                Slot s = new Slot(a, null, i, path + "[" + i + "]");
                out.add(s);
                collect(a.get(i), s.path(), out);
            }
        }
    }
}
