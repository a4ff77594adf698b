package io.dpone.manifest;

/**
 * A validated batch manifest. Instances come out of {@link ManifestLoader}; the {@code with...} copies are for
 * certification, which runs the same manifest against safe targets.
 */
public record BatchManifest(String name, SourceSpec source, SinkSpec sink, QualitySpec quality,
                            com.fasterxml.jackson.databind.JsonNode certification, CdcHandOverSpec cdc,
                            io.dpone.retry.RetrySettings retry) {
    /** A manifest without a {@code retry:} block (the serve config's or the defaults apply). */
    public BatchManifest(String name, SourceSpec source, SinkSpec sink, QualitySpec quality,
                         com.fasterxml.jackson.databind.JsonNode certification, CdcHandOverSpec cdc) {
        this(name, source, sink, quality, certification, cdc, null);
    }

    /** A manifest without a CDC hand-over. */
    public BatchManifest(String name, SourceSpec source, SinkSpec sink, QualitySpec quality,
                         com.fasterxml.jackson.databind.JsonNode certification) {
        this(name, source, sink, quality, certification, null);
    }

    public BatchManifest {
        certification = certification == null ? null : certification.deepCopy();
    }

    /** The same manifest loading {@code target} (staging in the same schema) through {@code route}. */
    public BatchManifest withTarget(TableRef target, String route) {
        SinkOptions o = sink.options();
        SinkOptions options = new SinkOptions(o.lineage(), route, o.orderBy(), o.externalArtifactStorePath(),
            o.physicalDesign(), o.clickhouseBulk());
        return new BatchManifest(name, source, new SinkSpec(sink.type(), sink.connectionRef(), target,
            target.schema(), sink.mode(), sink.maxSourceBytes(), options), quality, certification, null, retry);
    }

    /** The retry budget of a run of this manifest: its {@code retry:} block, else the defaults. */
    public io.dpone.retry.RetrySettings retrySettings() {
        return retry != null ? retry : io.dpone.retry.RetrySettings.DEFAULT;
    }

    /** This manifest with {@code fallback} as its retry budget unless it states its own (serve's {@code retry:}). */
    public BatchManifest withRetryFallback(io.dpone.retry.RetrySettings fallback) {
        return retry != null || fallback == null ? this
            : new BatchManifest(name, source, sink, quality, certification, cdc, fallback);
    }
}
