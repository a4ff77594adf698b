package io.dpone.manifest;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.connect.BoundedFile;
import io.dpone.connect.BoundedYaml;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a YAML file whose root must be a mapping (a batch manifest, a serve configuration): at most
 * {@code maxBytes} bytes (looked at before the file is read; more is {@code tooLarge}, unread), no line longer than
 * {@link BoundedYaml#MAX_LINE_CHARS} (also {@code tooLarge}, before parsing), parsed with {@link BoundedYaml}'s limits,
 * duplicate keys refused, syntax errors reported with line and column, never with the file's text. Each document
 * names its own blocker codes.
 */
public record YamlMappingFile(String what, BlockerCode unreadable, BlockerCode notMapping, BlockerCode invalidYaml,
                              BlockerCode tooLarge, int maxBytes) {
    /** The bound of a batch manifest and of a serve configuration: 1 MiB (real ones hold a few KiB). */
    public static final int MAX_BYTES = 1024 * 1024;

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
            throw new DponeException(unreadable, "$", what + " file '" + file + "' not found"
                + (file.isAbsolute() ? "" : " (relative to the current directory)"));
        }
        if (Files.isDirectory(file)) {
            throw new DponeException(unreadable, "$", what + " path '" + file + "' is a directory, not a file");
        }
        String text;
        try {
            text = BoundedFile.readUtf8(file, maxBytes);
        } catch (BoundedFile.TooLarge e) {
            throw new DponeException(tooLarge, "$", what + " file holds more than " + maxBytes
                + " bytes; it was not read");
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new DponeException(unreadable, "$", what + " file cannot be read as UTF-8");
        } catch (BoundedFile.NotRegular e) {
            throw new DponeException(unreadable, "$", what + " file is not a regular file (a FIFO, a device or a "
                + "socket); it was not opened");
        } catch (IOException | RuntimeException e) {
            throw new DponeException(unreadable, "$", what + " file '" + file + "' cannot be read (permissions?)");
        }
        int longLine = BoundedYaml.firstLongLine(text);
        if (longLine > 0) {
            throw new DponeException(tooLarge, "$", what + " line " + longLine + " is longer than "
                + BoundedYaml.MAX_LINE_CHARS + " characters; it was not parsed");
        }
        ObjectMapper yaml = BoundedYaml.mapper(maxBytes);
        try {
            JsonNode root = yaml.readTree(text);
            if (root == null || !root.isObject()) {
                throw new DponeException(notMapping, "$", what + " must be a YAML mapping");
            }
            return new Document(root, text);
        } catch (JsonProcessingException e) {
            JsonLocation loc = e.getLocation();
            String where = loc == null ? "" : " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
            if (e instanceof StreamConstraintsException) {
                throw new DponeException(tooLarge, "$", what + " goes beyond the parser's limits" + where + " ("
                    + BoundedYaml.LIMITS + ")");
            }
            String problem = e.getOriginalMessage() != null && e.getOriginalMessage().startsWith("Duplicate field")
                ? "duplicate key" : "invalid YAML";
            throw new DponeException(invalidYaml, "$", problem + where);
        } catch (DponeException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new DponeException(invalidYaml, "$", "invalid YAML (" + e.getClass().getSimpleName() + ")");
        }
    }
}
