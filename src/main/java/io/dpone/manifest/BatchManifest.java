package io.dpone.manifest;

/** A validated batch manifest. Instances only come out of {@link ManifestLoader}. */
public record BatchManifest(String name, SourceSpec source, SinkSpec sink, QualitySpec quality) {
}
