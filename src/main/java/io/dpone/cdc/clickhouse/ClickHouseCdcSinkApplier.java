package io.dpone.cdc.clickhouse;

import io.dpone.cdc.CdcApplyBatch;
import io.dpone.cdc.CdcEvent;
import io.dpone.cdc.CdcIdempotencyService;
import io.dpone.cdc.CdcSinkApplier;
import io.dpone.cdc.ExactText;
import io.dpone.cdc.SinkReceipt;
import io.dpone.cdc.StreamIdentity;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.cdc.CdcLogRows;
import io.dpone.connect.Redactor;
import io.dpone.error.DponeException;
import io.dpone.manifest.Identifier;
import io.dpone.source.SourceColumn;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The ClickHouse sink: an append-only CDC log table {@code db.table} (MergeTree, ORDER BY
 * {@code (dpone_cdc_unique_key_hash, dpone_cdc_version)}, {@code non_replicated_deduplication_window = 1000}).
 *
 * <p>Payload columns are {@code Nullable(String)} holding the canonical JSON text of each {@code data} value
 * ({@code 1}, {@code "paid"} with its quotes, {@code 19.90}); a JSON null is SQL NULL. A payload column first seen
 * later in the stream is added with {@code ALTER TABLE ... ADD COLUMN IF NOT EXISTS}. The {@code dpone_cdc_*}
 * columns are those of {@link #LOG_COLUMNS}; {@code dpone_cdc_version} is {@code UInt256} =
 * {@link CdcEvent#version()}, so it orders by LSN order (never by clock). The log table's DDL (create, add column,
 * the comment, the lookup of its comment and columns) is {@link CdcLogTable}'s; this class validates, deduplicates,
 * inserts and writes the receipt.
 *
 * <p>Idempotency: event ids already held by the log are not written again, and every batch is ONE
 * {@code INSERT ... SELECT FROM <RowBinary spool file>} ({@link CdcLogSpool}) with
 * {@code insert_deduplication_token = batch id}, {@code insert_deduplicate = 1}, {@code async_insert = 0}, so a
 * retried insert whose acknowledgement was lost lands once. {@code durable = true} only after that synchronous
 * insert returned. The table comment records the stream id: a log of another stream is refused.
 */
public final class ClickHouseCdcSinkApplier implements CdcSinkApplier {
    public static final String LOG_SCHEMA = CdcLogTable.SCHEMA;
    public static final int DEDUPLICATION_WINDOW = CdcLogTable.DEDUPLICATION_WINDOW;
    /** The metadata columns and their ClickHouse types, in table order (after the payload columns). */
    public static final Map<String, String> LOG_COLUMNS = CdcLogTable.COLUMNS;
    private static final DateTimeFormatter COMMIT_TIME =
        DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

    private final String database;
    private final String table;
    private final CdcIdempotencyService identity;
    private final Path spoolDir;
    private final CdcLogTable logTable;
    private final CdcLogRows logRows;

    /**
     * @param spoolDir a local directory for the batch spool files; with a server endpoint any directory, with the
     *                 embedded engine one the engine may read
     */
    public ClickHouseCdcSinkApplier(ClickHouseEndpoint ch, String database, String table,
                                    CdcIdempotencyService identity, Path spoolDir) {
        this.logRows = new CdcLogRows(ch, database, table);
        this.database = database;
        this.table = table;
        this.identity = identity;
        this.spoolDir = spoolDir;
        this.logTable = new CdcLogTable(ch, database, table);
    }

    /** The log table named by {@code stream.targetDataset()} ({@code db.table}). */
    public static ClickHouseCdcSinkApplier forStream(ClickHouseEndpoint ch, StreamIdentity stream,
                                                     CdcIdempotencyService identity, Path spoolDir) {
        String[] parts = stream.targetDataset().split("\\.", -1);
        if (parts.length != 2) {
            throw new IllegalArgumentException("target dataset must be db.table");
        }
        return new ClickHouseCdcSinkApplier(ch, parts[0], parts[1], identity, spoolDir);
    }

    public String target() {
        return database + "." + table;
    }

    @Override
    public SinkReceipt apply(StreamIdentity stream, CdcApplyBatch batch) {
        ExactText.require(stream, batch.events()); // a lone surrogate: typed, before anything is spooled or sent
        try {
            return applyChecked(stream, batch);
        } catch (DponeException e) {
            throw e; // typed: a schema change or a value that does not fit its column (nothing was written)
        } catch (RuntimeException e) {
            // the sink said no (or could not be reached): not applied, never durable; the message is ClickHouse's
            return receipt(batch, false, false, 0, 0, false, "ClickHouse CDC log apply failed: "
                + e.getClass().getSimpleName() + (e.getMessage() == null ? ""
                    : ": " + Redactor.global().serverText(firstLine(e.getMessage()))),
                Map.of());
        }
    }

    private SinkReceipt applyChecked(StreamIdentity stream, CdcApplyBatch batch) {
        List<String> problems = validate(batch);
        if (!problems.isEmpty()) {
            return receipt(batch, false, false, 0, 0, false, "batch cannot be written to the CDC log: "
                + String.join("; ", problems), Map.of("problems", problems));
        }
        Optional<CdcLogTable.Shape> log = logTable.read();
        CdcLogTypes.Resolution resolution = CdcLogTypes.evolve(stream, log, batch.columns());
        Map<String, SourceColumn> types = resolution.types();
        if (log.isEmpty()) {
            if (batch.events().isEmpty()) {
                return receipt(batch, true, true, 0, 0, false, "empty batch; nothing to write",
                    Map.of("rows_total", 0L));
            }
            logTable.create(stream, types);
            log = logTable.read(); // as created here, or by a concurrent creator (CREATE ... IF NOT EXISTS)
        }
        if (log.isEmpty() || !log.get().comment().equals(CdcLogTable.comment(stream))) {
            return receipt(batch, false, false, 0, 0, false, target() + " is not the CDC log of this stream ("
                + stream.streamId() + "); nothing was applied", Map.of("stream_id", stream.streamId()));
        }
        Map<String, CdcEvent> byId = new LinkedHashMap<>(Math.max(16, batch.events().size() * 4 / 3 + 1));
        for (CdcEvent e : batch.events()) {
            byId.putIfAbsent(identity.eventId(stream, e), e);
        }
        Map<String, String> heldBatches = held(byId);
        Set<String> held = heldBatches.keySet();
        boolean batchKnown = heldBatches.containsValue(batch.batchId());
        List<Map.Entry<String, CdcEvent>> fresh = byId.entrySet().stream()
            .filter(en -> !held.contains(en.getKey())).toList();
        int present = batch.events().size() - fresh.size();
        if (!fresh.isEmpty()) {
            // a widened column, or one the source dropped (written NULL from now on), before the rows that need it
            logTable.alterColumns(resolution.alter(), stream.uniqueKeys());
            insert(stream, batch, fresh, log.get().columns(), types);
        }
        return receipt(batch, true, true, fresh.size(), present, batchKnown, fresh.size()
            + " row(s) appended to " + target() + ", " + present + " already held",
            Map.of("rows_total", logRows.count()));
    }

    /**
     * One synchronous, token-deduplicated insert of {@code rows} (package-private so tests can retry it);
     * {@code existing}: the log table's columns as last read.
     */
    void insert(StreamIdentity stream, CdcApplyBatch batch, List<Map.Entry<String, CdcEvent>> rows,
                Set<String> existing) {
        insert(stream, batch, rows, existing, Map.of());
    }

    /** As above, with the payload columns' types ({@link CdcLogTypes}; empty: JSON text). */
    void insert(StreamIdentity stream, CdcApplyBatch batch, List<Map.Entry<String, CdcEvent>> rows,
                Set<String> existing, Map<String, SourceColumn> types) {
        Set<String> payload = new LinkedHashSet<>();
        rows.forEach(en -> payload.addAll(en.getValue().data().keySet()));
        logTable.addMissingColumns(payload, existing, types, stream.uniqueKeys());
        String commitTime = COMMIT_TIME.format(Instant.now());
        // the file-side types equal the table types; the columns equal for the whole batch are values of the insert
        List<CdcLogRows.FileColumn> fileColumns = CdcLogSpool.columns(payload).stream()
            .map(c -> new CdcLogRows.FileColumn(c, CdcLogSpool.fileType(c, types))).toList();
        Path spool = CdcLogSpool.file(spoolDir, target(), batch.batchId());
        try {
            CdcLogSpool.write(spool, stream, rows, payload, types);
            logRows.insert(new CdcLogRows.BatchFile(spool, CdcLogSpool.FORMAT, fileColumns, commitTime, batch.runId(),
                batch.batchId()));
        } finally {
            try {
                Files.deleteIfExists(spool);
            } catch (IOException e) {
                // a leftover spool file only costs disk; the next batch with this id overwrites it
            }
        }
    }

    private List<String> validate(CdcApplyBatch batch) {
        List<String> problems = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (CdcEvent e : batch.events()) {
            for (String c : e.data().keySet()) {
                if (!seen.add(c)) {
                    continue;
                }
                if (!Identifier.PATTERN.matcher(c).matches()) {
                    problems.add("column name is not an identifier (data column #" + seen.size() + ")");
                } else if (c.startsWith(CdcLogTable.PREFIX)) {
                    problems.add("column " + c + " uses the reserved prefix " + CdcLogTable.PREFIX);
                }
            }
            // version = position * 2^67 + (sequence * 8 + rank) with the low part below 2^67: it fits UInt256
            // exactly when the position has at most 189 bits
            if (e.positionValue().value().bitLength() > 256 - 67) {
                problems.add("position " + e.position() + " gives a version beyond UInt256");
            }
        }
        return problems;
    }

    /**
     * Event id -> batch id of the events of this batch the log already holds (after a crash between apply and
     * commit, or a retried apply). An event's version is a function of its identity (position, sequence,
     * operation), so a held event of this batch has a version inside the batch's {@code [min, max]} version range:
     * ONE query reads the ids in that range (several events share one LSN, so both ends are inclusive), and only
     * the ids of this batch count. In the usual tick the log holds nothing at or above the batch's first version
     * and the query returns no rows.
     */
    private Map<String, String> held(Map<String, CdcEvent> byId) {
        Map<String, String> held = new LinkedHashMap<>();
        if (byId.isEmpty()) {
            return held;
        }
        // the version grows with (position, sequence, rank): compare those (each event's position parsed once, the
        // ends' kept), and compute only the two end versions
        CdcEvent first = null;
        CdcEvent last = null;
        BigInteger firstPosition = null;
        BigInteger lastPosition = null;
        for (CdcEvent e : byId.values()) {
            BigInteger p = e.positionValue().value();
            if (first == null || CdcEvent.compare(p, e, firstPosition, first) < 0) {
                first = e;
                firstPosition = p;
            }
            if (last == null || CdcEvent.compare(p, e, lastPosition, last) > 0) {
                last = e;
                lastPosition = p;
            }
        }
        BigInteger min = first.version();
        BigInteger max = last.version();
        for (CdcLogRows.HeldEvent e : logRows.heldBetween(min, max)) {
            if (byId.containsKey(e.eventId())) {
                held.put(e.eventId(), e.batchId());
            }
        }
        return held;
    }

    private SinkReceipt receipt(CdcApplyBatch batch, boolean passed, boolean durable, int applied, int present,
                                boolean batchKnown, String message, Map<String, Object> details) {
        return new SinkReceipt(SinkReceipt.SCHEMA, batch.batchId(), batch.runId(), passed, durable, target(),
            batch.events().size(), applied, present, batchKnown, message, details);
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
