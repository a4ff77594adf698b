package io.dpone.cdc.runtime;

import io.dpone.cdc.SinkReceipt;
import io.dpone.error.Blocker;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * {@code cdc_runtime_run.json} (schema {@code dpone.cdc_runtime_run.v1}). Offsets appear as
 * {@code {backend, position, snapshot_complete}}: the checkpoint's {@code token} is called {@code position} here
 * because the shared redaction layer masks every report key named like a credential ({@code *token}).
 *
 * @param passed    no blocker
 * @param valuePolicy per column under a declared value policy ({@code --value-policy}, a serve stream's
 *                  {@code value_policy}), how many of the batch's values it changed; empty when none is declared
 * @param retries   what the tick retried after transient faults, per operation kind, and its budget (issue 35;
 *                  docs/operations.md, "Retries"); absent for a tick without connections (local files)
 * @param committed this tick saved {@code next_offset} to the checkpoint
 * @param commitOutcome why the offset moved or not: {@code committed}, {@code offset_unchanged} (the batch's next
 *                  offset is the one already committed: a replay), {@code no_next_offset} (nothing to apply and
 *                  no next offset) or {@code blocked} (a blocker stopped the tick before or at the commit)
 */
public record CdcRuntimeRunReport(String schema, String runId, String mode, boolean passed, boolean committed,
                                  String commitOutcome, Map<String, Object> stream, Map<String, Object> offsetBefore,
                                  Map<String, Object> offsetAfter, Map<String, Object> nextOffset,
                                  String highWatermark, String batchId, Counts counts,
                                  List<PolicyCount> valuePolicy, SinkReceipt sinkReceipt,
                                  List<Blocker> blockers, Metrics metrics, Instant startedAt, Instant finishedAt,
                                  Map<String, String> artifacts,
                                  @com.fasterxml.jackson.annotation.JsonIgnore
                                  List<io.dpone.source.SourceColumn> columns,
                                  @com.fasterxml.jackson.annotation.JsonInclude(
                                      com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
                                  List<TableFigures> tables,
                                  @com.fasterxml.jackson.annotation.JsonInclude(
                                      com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                                  io.dpone.retry.RetryTally retries,
                                  @com.fasterxml.jackson.annotation.JsonInclude(
                                      com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                                  Map<String, Object> tableSelection) {
    public static final String SCHEMA = "dpone.cdc_runtime_run.v1";

    /**
     * {@code columns}: the batch's payload columns with their SQL Server and ClickHouse types (empty when the reader
     * does not know them), for the lineage events' schema facets; not part of the report document.
     */
    public CdcRuntimeRunReport {
        columns = columns == null ? List.of() : List.copyOf(columns);
        tables = tables == null ? List.of() : List.copyOf(tables);
    }

    /**
     * One table of a multi-table stream in this tick ({@code tables[]}; absent for a single-table stream).
     *
     * @param sourceTable        {@code schema.table}
     * @param targetDataset      its CDC log
     * @param counts             its changes: read (in the batch), to apply, applied, already in its log (duplicates
     *                           and replays are the stream's, counted there)
     * @param millisBehindSource 0 when the table has no change left beyond the tick's bound, else the stream's lag;
     *                           -1 when unknown (a blocked tick)
     * @param blockers           the tick's blockers raised by this table's reader or log
     * @param state              {@code streaming}, or {@code added}: the table joined the stream in this tick with
     *                           its own snapshot hand-over
     * @param snapshotRows       rows of that snapshot (0 unless added), written to its log before its changes
     * @param snapshotApplied    of those, rows its log did not hold yet (a retried snapshot writes only the rest)
     */
    public record TableFigures(String sourceTable, String targetDataset, Counts counts, long millisBehindSource,
                               List<Blocker> blockers, String state, int snapshotRows, int snapshotApplied) {
        public TableFigures {
            blockers = List.copyOf(blockers);
        }

        public TableFigures(String sourceTable, String targetDataset, Counts counts, long millisBehindSource,
                            List<Blocker> blockers) {
            this(sourceTable, targetDataset, counts, millisBehindSource, blockers, "streaming", 0, 0);
        }
    }

    /**
     * @param read           changes in the batch
     * @param duplicates     changes repeating an earlier change's identity in the batch
     * @param replayed       changes at or below the checkpoint, skipped (already durable)
     * @param toApply        changes above the checkpoint (the apply set)
     * @param applied        rows the sink newly wrote
     * @param alreadyInSink  changes the sink already held (not written twice)
     */
    public record Counts(int read, int duplicates, int replayed, int toApply, int applied, int alreadyInSink) {
    }

    /** A column under a declared value policy ({@code clamp}, {@code null}, {@code as_text}) and the values it changed. */
    public record PolicyCount(String column, String policy, long changed) {
    }

    /**
     * Step durations (load_offset, read_batch, idempotency, apply, commit_offset), the tick's total from its first
     * step to its report ({@code durationMs}, the base of {@code eventsPerSecond}) and, apart from it, the setup
     * before the first step ({@code setupMs}: the route context's start, connections), and how far the stream is behind
 * its source after the tick ({@code millisBehindSource}, -1 when unknown; see
 * {@link io.dpone.cdc.CdcSourceReader#millisBehindSource}).
     */
    public record Metrics(Map<String, Long> stepMillis, long durationMs, double eventsPerSecond, long setupMs,
                          long millisBehindSource) {
    }
}
