package io.dpone.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import java.util.List;
import java.util.Set;

/**
 * The published JSON Schema of batch manifests ({@code schema/batch-manifest.schema.json}, copied to
 * {@code docs/}) with the manifest's blocker codes.
 */
public final class ManifestSchema {
    public static final String RESOURCE = "/schema/batch-manifest.schema.json";
    private static final JsonSchemaCheck CHECK = new JsonSchemaCheck(RESOURCE, new JsonSchemaCheck.Codes(
        BlockerCode.MANIFEST_UNKNOWN_KEY, BlockerCode.MANIFEST_MISSING_FIELD, BlockerCode.MANIFEST_WRONG_TYPE,
        BlockerCode.MANIFEST_INVALID_IDENTIFIER, BlockerCode.MANIFEST_INVALID_VALUE));

    private ManifestSchema() {
    }

    /** Every schema violation in {@code document} as a blocker, ordered by manifest path, with line and column. */
    public static List<Blocker> validate(JsonNode document, Set<String> ignoredPaths,
                                         java.util.function.Supplier<YamlLocations> locations) {
        return CHECK.validate(document, ignoredPaths, locations);
    }
}
