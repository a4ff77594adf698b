package io.dpone.cdc.local;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.CdcOffset;
import io.dpone.cdc.CdcOffsetStore;
import io.dpone.cdc.CheckpointRules;
import io.dpone.cdc.ConflictingCommit;
import io.dpone.cdc.StreamIdentity;
import io.dpone.error.DponeException;
import io.dpone.report.AtomicFiles;
import io.dpone.report.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The local checkpoint: one JSON file (schema {@code dpone.cdc_checkpoint.v1}) holding the stream identity and the
 * committed offset, replaced atomically (temp file, fsync, rename). A checkpoint of another stream is refused
 * ({@code cdc_runtime.checkpoint_stream_mismatch}) on load and on save; an unreadable one, or one that breaks
 * {@link CheckpointRules} (a {@code stream_id} that is not its stream's id, an offset of another backend, a token of
 * the wrong shape or type, a resume point that is not a JSON object) is {@code cdc_runtime.checkpoint_invalid},
 * naming the field and never its value. The file is state, not a report: it is written without redaction so an
 * offset token is never altered. A commit is a compare-and-set on the offset the tick loaded.
 */
public final class FileOffsetStore implements CdcOffsetStore {
    public static final String SCHEMA = "dpone.cdc_checkpoint.v1";
    private static final String SUBJECT = "--checkpoint-json";

    private final Path file;

    public FileOffsetStore(Path file) {
        this.file = file;
    }

    @Override
    public Optional<CdcOffset> load(StreamIdentity stream) {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        JsonNode root = StrictJson.read(file, CdcBlockers.CHECKPOINT_INVALID, SUBJECT);
        if (!root.isObject() || !SCHEMA.equals(root.path("schema").asText())) {
            throw invalid("schema", "is not " + SCHEMA);
        }
        checkStream(stream, root);
        if (!root.path("stream_id").isTextual() || !stream.streamId().equals(root.path("stream_id").asText())) {
            throw invalid("stream_id", "is not the id of the checkpoint's stream");
        }
        JsonNode offset = root.path("offset");
        if (!offset.isObject()) {
            throw invalid("offset", "is not an object {backend, token, snapshot_complete}");
        }
        for (String field : List.of("backend", "token")) {
            if (!offset.path(field).isTextual() || offset.path(field).asText().isEmpty()) {
                throw invalid("offset." + field, "is not a non-empty string");
            }
        }
        if (!offset.path("snapshot_complete").isBoolean()) {
            throw invalid("offset.snapshot_complete", "is not a boolean");
        }
        JsonNode resume = offset.path("resume");
        if (!resume.isMissingNode() && !resume.isNull() && !resume.isTextual()) {
            throw invalid("offset.resume", "is not a string");
        }
        JsonNode instance = offset.path("capture_instance");
        if (!instance.isMissingNode() && !instance.isNull() && !instance.isTextual()) {
            throw invalid("offset.capture_instance", "is not a string");
        }
        // a checkpoint written before capture instances were recorded reads as the stream's configured instance
        CdcOffset loaded = new CdcOffset(offset.path("backend").asText(), offset.path("token").asText(),
            offset.path("snapshot_complete").asBoolean(), resume.isTextual() ? resume.asText() : null,
            instance.isTextual() ? instance.asText() : null);
        CheckpointRules.check(stream, loaded).ifPresent(p -> {
            throw invalid(p.field(), p.rule());
        });
        return Optional.of(loaded);
    }

    /**
     * Compare-and-set under the tick's {@link FileTickFence}: the stored offset is read again and must still be
     * {@code expected}; a writer without the fence (an older dpone, a hand edit) that moved it is a conflict.
     */
    @Override
    public void commit(StreamIdentity stream, Optional<CdcOffset> expected, CdcOffset offset, String writer) {
        Optional<CdcOffset> current = load(stream);
        if (!current.equals(expected)) {
            throw ConflictingCommit.of(stream, SUBJECT, current, expected);
        }
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("backend", offset.backend());
        o.put("token", offset.token());
        o.put("snapshot_complete", offset.snapshotComplete());
        if (offset.resume() != null) {
            o.put("resume", offset.resume());
        }
        if (offset.captureInstance() != null) {
            o.put("capture_instance", offset.captureInstance());
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("schema", SCHEMA);
        doc.put("stream_id", stream.streamId());
        doc.put("stream", stream.toMap());
        doc.put("offset", o);
        doc.put("saved_at", Instant.now().toString());
        try {
            AtomicFiles.write(file, Json.MAPPER.writeValueAsString(doc) + "\n");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("checkpoint is not serialisable", e);
        }
    }

    @SuppressWarnings("unchecked")
    private void checkStream(StreamIdentity stream, JsonNode root) {
        JsonNode saved = root.path("stream");
        Map<String, Object> expected = stream.toMap();
        Map<String, Object> found = saved.isObject() ? StrictJson.MAPPER.convertValue(saved, Map.class) : Map.of();
        List<String> differs = new ArrayList<>();
        expected.forEach((k, v) -> {
            if (!v.equals(found.get(k))) {
                differs.add(k);
            }
        });
        if (!differs.isEmpty()) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("differs", differs);
            details.put("checkpoint_stream", found);
            details.put("stream", expected);
            throw new DponeException(CdcBlockers.blocker(CdcBlockers.CHECKPOINT_STREAM_MISMATCH, SUBJECT,
                file.getFileName() + " belongs to another stream (" + String.join(", ", differs)
                    + " differ); it was not used and not changed", details));
        }
    }

    /** {@code cdc_runtime.checkpoint_invalid} naming the field (in the message and {@code details.field}), never its value. */
    private DponeException invalid(String field, String rule) {
        return new DponeException(CdcBlockers.blocker(CdcBlockers.CHECKPOINT_INVALID, SUBJECT,
            file.getFileName() + ": " + field + " " + rule + "; the checkpoint was not used and not changed",
            Map.of("field", field)));
    }
}
