package io.dpone.manifest;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a batch manifest: YAML syntax, literal-secret scan, JSON Schema, then binding to records. Every problem
 * is collected with its manifest path before anything is returned; nothing is partially accepted.
 */
public final class ManifestLoader {
    private static final Pattern SECRET_KEY =
        Pattern.compile("(?i)^(password|passwd|pwd|secret|secret_key|access_key|access_key_id|secret_access_key"
            + "|token|api_key|credentials?)$");
    private static final ObjectMapper YAML = new ObjectMapper(
        YAMLFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build());

    private ManifestLoader() {
    }

    /** Loads and validates; throws {@link DponeException} with every blocker found. */
    public static BatchManifest load(Path file) {
        JsonNode root = parse(file);
        List<Blocker> blockers = new ArrayList<>();
        Set<String> secretPaths = new HashSet<>();
        scanForSecrets(root, "", blockers, secretPaths);
        blockers.addAll(ManifestSchema.validate(root, secretPaths));
        if (!blockers.isEmpty()) {
            throw new DponeException(blockers);
        }
        return ManifestBinder.bind(root);
    }

    private static JsonNode parse(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException | RuntimeException e) {
            throw new DponeException(BlockerCode.MANIFEST_UNREADABLE, "$", "manifest file cannot be read as UTF-8");
        }
        try {
            JsonNode root = YAML.readTree(text);
            if (root == null || !root.isObject()) {
                throw new DponeException(BlockerCode.MANIFEST_WRONG_TYPE, "$", "manifest must be a YAML mapping");
            }
            return root;
        } catch (JsonProcessingException e) {
            JsonLocation loc = e.getLocation();
            String where = loc == null ? "" : " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
            String what = e.getOriginalMessage() != null && e.getOriginalMessage().startsWith("Duplicate field")
                ? "duplicate key" : "invalid YAML";
            throw new DponeException(BlockerCode.MANIFEST_INVALID_YAML, "$", what + where);
        }
    }

    private static void scanForSecrets(JsonNode node, String path, List<Blocker> out, Set<String> paths) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String child = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
                if (SECRET_KEY.matcher(e.getKey()).matches()) {
                    paths.add(child);
                    out.add(Blocker.of(BlockerCode.MANIFEST_LITERAL_SECRET, child,
                        "manifests must not hold credentials; use a connection_ref alias resolved by the runtime "
                            + "connection context"));
                } else {
                    scanForSecrets(e.getValue(), child, out, paths);
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                scanForSecrets(node.get(i), path + "[" + i + "]", out, paths);
            }
        }
    }
}
