package io.dpone.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
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
    private static final YamlMappingFile FILE = new YamlMappingFile("manifest", BlockerCode.MANIFEST_UNREADABLE,
        BlockerCode.MANIFEST_WRONG_TYPE, BlockerCode.MANIFEST_INVALID_YAML, BlockerCode.MANIFEST_TOO_LARGE,
        YamlMappingFile.MAX_BYTES);

    private ManifestLoader() {
    }

    /** Loads and validates; throws {@link DponeException} with every blocker found. */
    public static BatchManifest load(Path file) {
        YamlMappingFile.Document document = FILE.read(file);
        JsonNode root = document.root();
        List<Blocker> blockers = new ArrayList<>();
        Set<String> secretPaths = new HashSet<>();
        scanForSecrets(root, "", blockers, secretPaths);
        blockers.addAll(ManifestSchema.validate(root, secretPaths, document::locations));
        blockers.addAll(ManifestOptions.check(root));
        if (!blockers.isEmpty()) {
            throw new DponeException(blockers);
        }
        return ManifestBinder.bind(root);
    }

    /**
     * The connection aliases {@code file} names at the given manifest paths, read without validating the rest (so
     * {@code dpone check} can report an unknown alias next to schema problems); a path whose value is not text is
     * left out, and a file that is not a YAML mapping gives none.
     */
    public static Map<String, String> connectionRefs(Path file, List<String> paths) {
        Map<String, String> refs = new java.util.LinkedHashMap<>();
        JsonNode root;
        try {
            root = FILE.read(file).root();
        } catch (DponeException e) {
            return refs;
        }
        for (String path : paths) {
            JsonNode node = root;
            for (String key : path.split("\\.")) {
                node = node.path(key);
            }
            if (node.isTextual()) {
                refs.put(path, node.asText());
            }
        }
        return refs;
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
