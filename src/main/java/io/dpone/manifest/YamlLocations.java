package io.dpone.manifest;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.JsonFactory;
import io.dpone.connect.BoundedYaml;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Where each path of a YAML document starts (line and column, 1-based), in the path syntax of the validators'
 * blockers ({@code jobs[0].schedule.every}, {@code $} for the root): a key's path points at the key, a list item's at
 * the item. Jackson's tree keeps no locations, so this walks the document's tokens once (linear in its size).
 */
public final class YamlLocations {
    /** The parser and limits {@link YamlMappingFile} read the document with (it was read before it is located). */
    private static final JsonFactory FACTORY = BoundedYaml.mapper(YamlMappingFile.MAX_BYTES).getFactory();

    /** A line and column, both counted from 1. */
    public record Location(int line, int column) {
    }

    private final Map<String, Location> index;

    private YamlLocations(Map<String, Location> index) {
        this.index = index;
    }

    /** The locations of {@code text}; empty when it does not parse (the syntax error is reported on its own). */
    public static YamlLocations of(String text) {
        Map<String, Location> index = new HashMap<>();
        Deque<Frame> stack = new ArrayDeque<>();
        try (JsonParser p = FACTORY.createParser(text)) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                Frame top = stack.peek();
                if (t == JsonToken.FIELD_NAME) {
                    top.key = p.currentName();
                    record(index, stack, p.currentTokenLocation());
                    continue;
                }
                if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
                    stack.pop();
                    continue;
                }
                if (top == null) {
                    index.putIfAbsent("$", at(p.currentTokenLocation()));
                } else if (top.array) {
                    top.index++;
                    record(index, stack, p.currentTokenLocation());
                }
                if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                    stack.push(new Frame(t == JsonToken.START_ARRAY));
                }
            }
        } catch (IOException | RuntimeException e) {
            return new YamlLocations(Map.of());
        }
        return new YamlLocations(index);
    }

    /** Where {@code path} starts; for a path that is not in the document (a missing key), where its parent starts. */
    public Optional<Location> find(String path) {
        for (String p = path; p != null; p = parent(p)) {
            Location l = index.get(p);
            if (l != null) {
                return Optional.of(l);
            }
        }
        return Optional.empty();
    }

    private static String parent(String path) {
        int cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
        if (cut > 0) {
            return path.substring(0, cut);
        }
        return "$".equals(path) ? null : "$";
    }

    private static void record(Map<String, Location> index, Deque<Frame> stack, JsonLocation location) {
        StringBuilder path = new StringBuilder();
        for (var it = stack.descendingIterator(); it.hasNext(); ) {
            Frame f = it.next();
            if (f.array) {
                path.append('[').append(f.index).append(']');
            } else {
                if (path.length() > 0) {
                    path.append('.');
                }
                path.append(f.key);
            }
        }
        index.putIfAbsent(path.toString(), at(location));
    }

    private static Location at(JsonLocation l) {
        return new Location(l.getLineNr(), l.getColumnNr());
    }

    private static final class Frame {
        final boolean array;
        String key;
        int index = -1;

        Frame(boolean array) {
            this.array = array;
        }
    }
}
