package io.dpone.manifest;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a YAML file whose root must be a mapping (a batch manifest, a serve configuration): duplicate keys refused,
 * syntax errors reported with line and column, never with the file's text. Each document names its own blocker codes.
 */
public record YamlMappingFile(String what, BlockerCode unreadable, BlockerCode notMapping, BlockerCode invalidYaml) {
    private static final ObjectMapper YAML = new ObjectMapper(
        YAMLFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build());

    /**
     * A document's root mapping, and where each of its paths starts: found only when asked (a blocker needs a line),
     * so a valid document is parsed once.
     */
    public static final class Document {
        private final JsonNode root;
        private final String text;
        private YamlLocations locations;

        Document(JsonNode root, String text) {
            this.root = root;
            this.text = text;
        }

        public JsonNode root() {
            return root;
        }

        public synchronized YamlLocations locations() {
            if (locations == null) {
                locations = YamlLocations.of(text);
            }
            return locations;
        }
    }

    /** The root mapping of {@code file}; a typed blocker at {@code $} otherwise. */
    public Document read(Path file) {
        if (!Files.exists(file)) {
            throw new DponeException(unreadable, "$", what + " file not found");
        }
        if (Files.isDirectory(file)) {
            throw new DponeException(unreadable, "$", what + " path is a directory, not a file");
        }
        String text;
        try {
            text = Files.readString(file);
        } catch (java.nio.charset.MalformedInputException | java.nio.charset.UnmappableCharacterException e) {
            throw new DponeException(unreadable, "$", what + " file cannot be read as UTF-8");
        } catch (IOException | RuntimeException e) {
            throw new DponeException(unreadable, "$", what + " file cannot be read (permissions?)");
        }
        try {
            JsonNode root = YAML.readTree(text);
            if (root == null || !root.isObject()) {
                throw new DponeException(notMapping, "$", what + " must be a YAML mapping");
            }
            return new Document(root, text);
        } catch (JsonProcessingException e) {
            JsonLocation loc = e.getLocation();
            String where = loc == null ? "" : " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
            String problem = e.getOriginalMessage() != null && e.getOriginalMessage().startsWith("Duplicate field")
                ? "duplicate key" : "invalid YAML";
            throw new DponeException(invalidYaml, "$", problem + where);
        }
    }
}
