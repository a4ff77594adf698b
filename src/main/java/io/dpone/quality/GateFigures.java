package io.dpone.quality;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A gate's figures in a flat, printable form for the status page and the lineage events: numbers and booleans as they
 * are, short texts (a mode, a hash, a skip reason), a list of names joined (at most {@value #MAX_NAMES}, then a count),
 * and a nested map (per column) as its count of entries. Never a row value: gates report counts, hashes and names.
 */
public final class GateFigures {
    static final int MAX_NAMES = 10;
    static final int MAX_TEXT = 120;

    private GateFigures() {
    }

    /** The flat figures of {@code details}, keys sorted. */
    public static Map<String, String> of(Map<String, Object> details) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : new TreeMap<>(details).entrySet()) {
            String v = text(e.getValue());
            if (v != null) {
                out.put(e.getKey(), v);
            }
        }
        return out;
    }

    private static String text(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof Number || value instanceof Boolean) {
            return String.valueOf(value);
        }
        if (value instanceof CharSequence s) {
            return s.length() <= MAX_TEXT ? s.toString() : s.subSequence(0, MAX_TEXT) + "...";
        }
        if (value instanceof List<?> list) {
            if (list.stream().allMatch(o -> o instanceof CharSequence)) {
                List<String> names = list.stream().limit(MAX_NAMES).map(String::valueOf).toList();
                return "[" + String.join(", ", names) + (list.size() > MAX_NAMES ? ", ... " + list.size() + " in all"
                    : "") + "]";
            }
            return list.size() + " item(s)";
        }
        if (value instanceof Map<?, ?> map) {
            return map.size() + " entr" + (map.size() == 1 ? "y" : "ies");
        }
        return null;
    }
}
