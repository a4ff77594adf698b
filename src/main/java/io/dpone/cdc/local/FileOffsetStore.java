package io.dpone.cdc.local;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.CdcOffset;
import io.dpone.cdc.CdcOffsetStore;
import io.dpone.cdc.CdcPosition;
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
 * ({@code cdc_runtime.checkpoint_stream_mismatch}) on load and on save; an unreadable one is
 * {@code cdc_runtime.checkpoint_invalid}. The file is state, not a report: it is written without redaction so an
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
            throw invalid("is not a " + SCHEMA + " document");
        }
        checkStream(stream, root);
        JsonNode offset = root.path("offset");
        String backend = offset.path("backend").asText("");
        String token = offset.path("token").asText("");
        if (backend.isEmpty() || CdcPosition.parse(token).isEmpty() || !offset.path("snapshot_complete").isBoolean()) {
            throw invalid("has no valid offset {backend, token, snapshot_complete}");
        }
        JsonNode resume = offset.path("resume");
        if (!resume.isMissingNode() && !resume.isNull() && !resume.isTextual()) {
            throw invalid("has an offset resume that is not a string");
        }
        return Optional.of(new CdcOffset(backend, token, offset.path("snapshot_complete").asBoolean(),
            resume.isTextual() ? resume.asText() : null));
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

    private DponeException invalid(String what) {
        return CdcBlockers.failure(CdcBlockers.CHECKPOINT_INVALID, SUBJECT, file.getFileName() + " " + what);
    }
}
