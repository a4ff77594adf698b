package io.dpone.cdc.handover;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.CdcOffset;
import io.dpone.cdc.CdcOffsetStore;
import io.dpone.cdc.CdcTickFence;
import io.dpone.cdc.StreamIdentity;
import io.dpone.cdc.clickhouse.CdcSnapshots;
import io.dpone.cdc.clickhouse.ClickHouseOffsetStore;
import io.dpone.cdc.local.FileOffsetStore;
import io.dpone.cdc.local.FileTickFence;
import io.dpone.cdc.mssql.SnapshotBoundary;
import io.dpone.cdc.mssql.SqlServerCdcReader;
import io.dpone.cdc.runtime.ClickHouseCdcAdapters;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseEndpoints;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.manifest.BatchManifest;
import io.dpone.manifest.CdcHandOverSpec;
import io.dpone.report.AtomicFiles;
import io.dpone.report.Json;
import io.dpone.camel.RunRequest;
import io.dpone.source.SourceConnections;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A full refresh that hands its snapshot over to the table's CDC stream (the manifest's {@code cdc} block):
 * <ol>
 *   <li>before the snapshot's first row, the stream position is read from the source ({@link SnapshotBoundary})
 *   and kept in {@code <state dir>/cdc-handover/<run id>.json}, so a resumed run (same {@code --run-id}) hands
 *   over at the position its snapshot was read after, not a later one;</li>
 *   <li>the refresh runs as any other (local or cluster publication);</li>
 *   <li>only when its report passed, that is, the publication is durable (the cluster's committed receipt), the
 *   snapshot is recorded for the log ({@link CdcSnapshots}) and the position is committed as the stream's
 *   checkpoint with {@code snapshot_complete: true} (a compare-and-set like every commit).</li>
 * </ol>
 * A failed refresh moves nothing. A hand-over that fails after a durable publication turns the report red with
 * the hand-over's blocker; running the same run id again resumes after the publication and retries the hand-over.
 * The steps are the {@code full_refresh} route's ({@code hand_over_position}, {@code hand_over_commit}: see
 * {@link HandOverPositionProcessor}, {@link HandOverCommitProcessor}); this class does their work.
 */
public final class SnapshotHandOver {
    public static final String SCHEMA = "dpone.cdc_handover.v1";

    private SnapshotHandOver() {
    }

    /**
     * Step {@code hand_over_position} of {@code full_refresh}: checks the {@code cdc} block, then reads the stream
     * position before the snapshot's first row (or the one an earlier attempt of this run id recorded) and keeps it
     * in the boundary file. Throws, typed, when it cannot: nothing has been read or written then.
     */
    static String position(RunRequest r) {
        validate(r.manifest(), r.manifest().cdc());
        return boundary(r.manifest(), r.manifest().cdc(), r.context(), boundaryFile(r));
    }

    /**
     * Step {@code hand_over_commit}, only after the run passed (its publication is durable): records the snapshot for
     * the log and commits {@code position} as the stream's checkpoint with {@code snapshot_complete}, then removes the
     * boundary file. Returns the report's note; a refusal is thrown, typed.
     */
    static String commitAfterPublication(RunRequest r, String position) {
        BatchManifest m = r.manifest();
        CdcHandOverSpec cdc = m.cdc();
        commit(m, cdc, r.context(), r.runId(), position);
        try {
            Files.deleteIfExists(boundaryFile(r));
        } catch (IOException e) {
            // a leftover boundary file is only read again by a run with this run id
        }
        return "cdc hand-over: stream " + cdc.pipelineName() + " (" + cdc.backend() + ") continues after position "
            + position + "; its checkpoint was committed with snapshot_complete after the publication was durable";
    }

    private static Path boundaryFile(RunRequest r) {
        return r.workDir().resolve("cdc-handover").resolve(r.runId() + ".json");
    }

    /** The stream the snapshot hands over to. */
    static StreamIdentity stream(BatchManifest m, CdcHandOverSpec cdc) {
        return new StreamIdentity(cdc.pipelineName(), cdc.backend(), m.source().table().schema(),
            m.source().table().name(), cdc.logDataset(), cdc.uniqueKeys());
    }

    private static void validate(BatchManifest m, CdcHandOverSpec cdc) {
        List<Blocker> problems = new ArrayList<>();
        if ("file".equals(cdc.offsetStore()) && cdc.checkpointJson() == null) {
            problems.add(Blocker.of(BlockerCode.MANIFEST_MISSING_FIELD, "cdc.checkpoint_json",
                "cdc.offset_store file needs cdc.checkpoint_json"));
        }
        String target = m.sink().table().schema() + "." + m.sink().table().name();
        if (cdc.logDataset().equals(target)) {
            problems.add(Blocker.of(BlockerCode.MANIFEST_INVALID_VALUE, "cdc.log_dataset",
                "the CDC log must not be the refreshed table"));
        }
        if (!problems.isEmpty()) {
            throw new DponeException(problems);
        }
    }

    private static String boundary(BatchManifest m, CdcHandOverSpec cdc, ConnectionContext context, Path file) {
        if (Files.exists(file)) {
            // a resumed run: its snapshot may have been read already, so only the position read before it will do
            JsonNode saved;
            try {
                saved = Json.MAPPER.readTree(file.toFile());
            } catch (IOException e) {
                saved = Json.MAPPER.createObjectNode();
            }
            if (SCHEMA.equals(saved.path("schema").asText()) && cdc.backend().equals(saved.path("backend").asText())
                && cdc.pipelineName().equals(saved.path("pipeline_name").asText())) {
                return saved.path("position").asText();
            }
            throw CdcBlockers.failure(CdcBlockers.CHECKPOINT_INVALID, "cdc", "the hand-over position an earlier "
                + "attempt of this run id recorded is unreadable or belongs to another stream; run with a new run id");
        }
        String position;
        try (Connection c = SourceConnections.open(context.resolve(m.source().connectionRef(), ConnectionType.MSSQL,
            "source.connection_ref"), "dpone-cdc-handover")) {
            uniqueKeysExist(c, m, cdc);
            position = SnapshotBoundary.read(c, cdc.backend(), cdc.captureInstance() != null ? cdc.captureInstance()
                : SqlServerCdcReader.defaultCaptureInstance(m.source().table().schema(), m.source().table().name()));
        } catch (SQLException e) {
            throw new DponeException(BlockerCode.SOURCE_READ_FAILED, "source.connection_ref",
                "cannot close the hand-over's source connection: " + e.getClass().getSimpleName());
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("schema", SCHEMA);
        doc.put("pipeline_name", cdc.pipelineName());
        doc.put("backend", cdc.backend());
        doc.put("position", position);
        try {
            io.dpone.connect.PrivateFiles.directory(file.toAbsolutePath().getParent());
            AtomicFiles.write(file, Json.MAPPER.writeValueAsString(doc) + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return position;
    }

    /** Every {@code cdc.unique_keys} column is a column of the source table, checked before anything is read. */
    private static void uniqueKeysExist(Connection c, BatchManifest m, CdcHandOverSpec cdc) throws SQLException {
        java.util.Set<String> columns = new java.util.HashSet<>();
        try (java.sql.ResultSet rs = c.getMetaData().getColumns(null, m.source().table().schema(),
            m.source().table().name(), null)) {
            while (rs.next()) {
                if (m.source().table().name().equalsIgnoreCase(rs.getString("TABLE_NAME"))) {
                    columns.add(rs.getString("COLUMN_NAME").toLowerCase(java.util.Locale.ROOT));
                }
            }
        }
        List<Blocker> missing = new ArrayList<>();
        for (int i = 0; i < cdc.uniqueKeys().size(); i++) {
            String key = cdc.uniqueKeys().get(i);
            if (!columns.isEmpty() && !columns.contains(key.toLowerCase(java.util.Locale.ROOT))) {
                missing.add(Blocker.of(BlockerCode.MANIFEST_INVALID_VALUE, "cdc.unique_keys[" + i + "]",
                    "unique key " + key + " is not a column of the source table; nothing was read or written"));
            }
        }
        if (!missing.isEmpty()) {
            throw new DponeException(missing);
        }
    }

    private static void commit(BatchManifest m, CdcHandOverSpec cdc, ConnectionContext context, String runId,
                               String position) {
        StreamIdentity stream = stream(m, cdc);
        String logDb = cdc.logDataset().substring(0, cdc.logDataset().indexOf('.'));
        try (ClickHouseEndpoint ch = ClickHouseEndpoints.open(context.resolve(m.sink().connectionRef(),
            ConnectionType.CLICKHOUSE, "sink.connection_ref"))) {
            new CdcSnapshots(ch, logDb).record(cdc.logDataset(), new CdcSnapshots.Snapshot(m.sink().table().schema()
                + "." + m.sink().table().name(), cdc.backend(), position, runId));
            CdcOffset first = new CdcOffset(cdc.backend(), position, true);
            if ("file".equals(cdc.offsetStore())) {
                Path checkpoint = Path.of(cdc.checkpointJson());
                try (CdcTickFence.Held held = FileTickFence.of(checkpoint, null).acquire(stream)) {
                    commitOnce(new FileOffsetStore(checkpoint), stream, first, runId);
                }
            } else {
                commitOnce(new ClickHouseOffsetStore(ch, logDb, ClickHouseCdcAdapters.OFFSETS_TABLE), stream, first,
                    runId);
            }
        }
    }

    /** Commits {@code first} unless the store holds it already (a resumed hand-over). */
    private static void commitOnce(CdcOffsetStore offsets, StreamIdentity stream, CdcOffset first, String runId) {
        Optional<CdcOffset> loaded = offsets.load(stream);
        if (!loaded.equals(Optional.of(first))) {
            offsets.commit(stream, loaded, first, runId);
        }
    }
}
