package io.dpone.cdc.local;

import io.dpone.cdc.CdcApplyBatch;
import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.CdcEvent;
import io.dpone.cdc.CdcHashes;
import io.dpone.cdc.CdcIdempotencyService;
import io.dpone.cdc.CdcSinkApplier;
import io.dpone.cdc.ExactText;
import io.dpone.cdc.SinkReceipt;
import io.dpone.cdc.StreamIdentity;
import io.dpone.error.DponeException;
import io.dpone.report.AtomicFiles;
import io.dpone.report.Json;
import io.dpone.report.ReportWriter;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The local sink: an append-only CDC log in {@code sink/cdc_sink_rows.json} (schema {@code dpone.cdc_sink_rows.v1})
 * and the last receipt in {@code sink/cdc_sink_receipt.json}. Rows are the change's {@code data} columns plus the
 * {@code dpone_cdc_*} columns (see {@link #row}). Idempotent: an event whose id the log already holds is not
 * written again, and a batch id already in {@code applied_batches} adds nothing. The log and its batch ledger are
 * one file written atomically (temp file, fsync, rename); the receipt says {@code durable: true} only after that
 * write returned. Row data is written as received (not redacted: it is data, not a report).
 */
public final class LocalSinkApplier implements CdcSinkApplier {
    public static final String ROWS_SCHEMA = "dpone.cdc_sink_rows.v1";
    public static final String ROWS_FILE = "cdc_sink_rows.json";
    public static final String RECEIPT_FILE = "cdc_sink_receipt.json";

    private final Path sinkDir;
    private final CdcIdempotencyService identity;

    public LocalSinkApplier(Path sinkDir, CdcIdempotencyService identity) {
        this.sinkDir = sinkDir;
        this.identity = identity;
    }

    @Override
    public SinkReceipt apply(StreamIdentity stream, CdcApplyBatch batch) {
        ExactText.require(stream, batch.events()); // before anything is read or written
        Path rowsFile = sinkDir.resolve(ROWS_FILE);
        Map<String, Object> log = Files.exists(rowsFile) ? load(rowsFile) : newLog(stream);
        if (!stream.streamId().equals(log.get("stream_id"))) {
            return receipt(batch, false, false, 0, 0, false, "sink/" + ROWS_FILE + " holds another stream ("
                + log.get("stream_id") + "); nothing was applied", Map.of("sink_stream_id", String.valueOf(
                    log.get("stream_id")), "stream_id", stream.streamId()));
        }
        List<Map<String, Object>> rows = listOf(log.get("rows"));
        List<Map<String, Object>> batches = listOf(log.get("applied_batches"));
        Set<Object> held = new HashSet<>();
        rows.forEach(r -> held.add(r.get("dpone_cdc_event_id")));
        boolean batchKnown = batches.stream().anyMatch(b -> batch.batchId().equals(b.get("batch_id")));
        int present = 0;
        int applied = 0;
        for (CdcEvent e : batch.events()) {
            String id = identity.eventId(stream, e);
            if (!held.add(id)) {
                present++;
                continue;
            }
            rows.add(row(stream, e, id, batch));
            applied++;
        }
        if (applied > 0 || (!batchKnown && !batch.events().isEmpty())) {
            if (!batchKnown) {
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("batch_id", batch.batchId());
                entry.put("run_id", batch.runId());
                entry.put("events", batch.events().size());
                entry.put("applied_rows", applied);
                batches.add(entry);
            }
            log.put("rows", rows);
            log.put("applied_batches", batches);
            write(rowsFile, log);
        }
        return receipt(batch, true, true, applied, present, batchKnown, applied + " row(s) appended to sink/"
            + ROWS_FILE + ", " + present + " already held", Map.of("rows_total", rows.size()));
    }

    /**
     * One sink row: the {@code data} columns, then {@code dpone_cdc_unique_key_hash}, {@code dpone_cdc_event_id},
     * {@code dpone_cdc_operation}, {@code dpone_cdc_position}, {@code dpone_cdc_sequence},
     * {@code dpone_cdc_version} (decimal text of {@link CdcEvent#version()}), {@code dpone_cdc_batch_id},
     * {@code dpone_cdc_run_id}.
     */
    static Map<String, Object> row(StreamIdentity stream, CdcEvent e, String eventId, CdcApplyBatch batch) {
        Map<String, Object> r = new LinkedHashMap<>(e.data());
        r.put("dpone_cdc_unique_key_hash", CdcHashes.uniqueKeyHash(stream.uniqueKeys(), e.data()));
        r.put("dpone_cdc_event_id", eventId);
        r.put("dpone_cdc_operation", e.operation().name());
        r.put("dpone_cdc_position", e.position());
        r.put("dpone_cdc_sequence", e.sequence());
        r.put("dpone_cdc_version", e.version().toString());
        r.put("dpone_cdc_batch_id", batch.batchId());
        r.put("dpone_cdc_run_id", batch.runId());
        return r;
    }

    private SinkReceipt receipt(CdcApplyBatch batch, boolean passed, boolean durable, int applied, int present,
                                boolean batchKnown, String message, Map<String, Object> details) {
        SinkReceipt r = new SinkReceipt(SinkReceipt.SCHEMA, batch.batchId(), batch.runId(), passed, durable,
            "sink/" + ROWS_FILE, batch.events().size(), applied, present, batchKnown, message, details);
        ReportWriter.writeJson(sinkDir.resolve(RECEIPT_FILE), r);
        return r;
    }

    private static Map<String, Object> newLog(StreamIdentity stream) {
        Map<String, Object> log = new LinkedHashMap<>();
        log.put("schema", ROWS_SCHEMA);
        log.put("stream_id", stream.streamId());
        log.put("stream", stream.toMap());
        log.put("applied_batches", new ArrayList<>());
        log.put("rows", new ArrayList<>());
        return log;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> load(Path rowsFile) {
        JsonNode node = StrictJson.read(rowsFile, CdcBlockers.SINK_APPLY_FAILED, "sink/" + ROWS_FILE);
        if (!node.isObject() || !ROWS_SCHEMA.equals(node.path("schema").asText())) {
            throw new DponeException(CdcBlockers.blocker(CdcBlockers.SINK_APPLY_FAILED, "sink/" + ROWS_FILE,
                "sink/" + ROWS_FILE + " is not a " + ROWS_SCHEMA + " document"));
        }
        return new LinkedHashMap<>(StrictJson.MAPPER.convertValue(node, Map.class));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> listOf(Object value) {
        List<Map<String, Object>> out = new ArrayList<>();
        if (value instanceof List<?> list) {
            list.forEach(item -> out.add((Map<String, Object>) item));
        }
        return out;
    }

    private static void write(Path file, Map<String, Object> log) {
        try {
            AtomicFiles.write(file, Json.MAPPER.writeValueAsString(log) + "\n");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("sink rows are not serialisable", e);
        }
    }
}
