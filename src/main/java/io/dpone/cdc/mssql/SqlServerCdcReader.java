package io.dpone.cdc.mssql;

import io.dpone.cdc.CdcBatch;
import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.CdcEvent;
import io.dpone.cdc.CdcOffset;
import io.dpone.cdc.CdcOperation;
import io.dpone.cdc.CdcSourceReader;
import io.dpone.cdc.RowValues;
import io.dpone.cdc.StreamIdentity;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.source.SqlServerDialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads SQL Server CDC: the change rows of one capture instance ({@code cdc.<capture_instance>_CT}) after the
 * committed offset and up to {@code sys.fn_cdc_get_max_lsn()}, in the order {@code __$start_lsn, __$command_id,
 * __$seqval, __$operation}.
 *
 * <p>Events: {@code position} = {@code __$start_lsn} ({@code 0x} + 20 hex digits), {@code sequence} = the row's
 * ordinal inside that LSN in the order above (stable: a committed LSN's change rows never change), operation
 * 1 delete, 2 insert, 3 {@code update_before}, 4 {@code update_after}; {@code data} = the captured columns, typed
 * by the snapshot type mapping; {@code metadata} = backend, capture instance, {@code seqval}, {@code command_id}.
 * A primary-key update is the delete and the insert SQL Server writes at the same LSN.
 *
 * <p>Offsets: a batch that ends on an LSN boundary commits that LSN (or {@code max_lsn} once everything up to it is
 * read: an idle stream still moves forward, so cleanup does not overtake it). A batch that ends inside an LSN
 * {@code X} commits {@code X - 1} with a resume point ({@link CdcResumePoint}) naming its last row; the next batch
 * reads the rest of {@code X} first. When the first unread LSN is below {@code sys.fn_cdc_get_min_lsn}, changes
 * were cleaned up unread: {@code cdc_runtime.cdc_resync_required}, nothing is read.
 */
public final class SqlServerCdcReader implements CdcSourceReader {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SqlServerCdcReader.class);
    public static final String BACKEND = "mssql_cdc";
    /** The metadata of every change, in this order. */
    private static final RowValues.Shape METADATA = RowValues.Shape.of(List.of("backend", "capture_instance", "seqval",
        "command_id"));

    private final Connection connection;
    private final StreamIdentity stream;
    /** The stream's configured capture instance: the one an offset without a recorded instance reads. */
    private final String captureInstance;
    /** The capture instance being read in this batch (the offset's, or the one handed over to). */
    private String instance;
    /** The instance {@link #columns} describe. */
    private String describedFor;
    /** Whether the described instance's columns differ from the source table's (names or types). */
    private boolean shapeDiffers;
    private final io.dpone.manifest.ValuePolicies policies;
    /** Whether the reader may create a table's second capture instance itself ({@link CaptureInstanceDdl}). */
    private boolean allowCaptureInstanceDdl;
    private PayloadColumns columns;
    /** What the declared value policies changed in the batch being read. */
    private io.dpone.source.PolicyTally tally;
    /** The payload columns as the batches declare them (source types and nullability). */
    private List<io.dpone.source.SourceColumn> batchColumns = List.of();
    private ChangeTableSql sql;
    /** The payload column names of every change's data, in select order. */
    private RowValues.Shape dataShape;

    /** @param captureInstance the capture instance, by default {@code <schema>_<table>} */
    public SqlServerCdcReader(Connection connection, StreamIdentity stream, String captureInstance) {
        this(connection, stream, captureInstance, io.dpone.manifest.ValuePolicies.NONE);
    }

    /** @param policies what the reader does with a value ClickHouse cannot hold (refuse unless declared) */
    public SqlServerCdcReader(Connection connection, StreamIdentity stream, String captureInstance,
                              io.dpone.manifest.ValuePolicies policies) {
        SqlServerDialect.quote(captureInstance);
        this.connection = connection;
        this.stream = stream;
        this.captureInstance = captureInstance;
        this.instance = captureInstance;
        this.policies = policies;
    }

    /**
     * Lets the reader create the table's second capture instance when the one it reads no longer matches the table
     * and there is no later one ({@code --allow-capture-instance-ddl}; docs/cdc.md, "Schema changes"). Off by
     * default: the reader then only reads.
     */
    public SqlServerCdcReader allowingCaptureInstanceDdl(boolean allow) {
        this.allowCaptureInstanceDdl = allow;
        return this;
    }

    /** The default capture instance name SQL Server gives a table: {@code <schema>_<table>}. */
    public static String defaultCaptureInstance(String schema, String table) {
        return schema + "_" + table;
    }

    @Override
    public CdcBatch readBatch(CdcOffset from, int maxEvents) {
        if (maxEvents < 1) {
            throw new IllegalArgumentException("maxEvents must be positive");
        }
        try {
            return read(from, maxEvents);
        } catch (SQLException e) {
            throw ReadFailures.readFailed(connection, e, "source.cdc." + instance,
                "cannot read the CDC change table of capture instance " + instance + " (SQLState "
                    + e.getSQLState() + ")");
        }
    }

    private CdcBatch read(CdcOffset from, int maxEvents) throws SQLException {
        instance = from == null || from.captureInstance() == null ? captureInstance : from.captureInstance();
        SqlServerDialect.quote(instance);
        CdcResumePoint resume = from == null || from.resume() == null ? null : CdcResumePoint.parse(from.resume());
        Lsn committed = from == null ? null : Lsn.of(from.position());
        // where the handed-over instance is read from (inclusive) when the old one had nothing left below its start
        Lsn handedOverAt = null;
        for (int hop = 0; ; hop++) {
            Lsn min = ChangeTableSql.lsn(connection, ChangeTableSql.MIN_LSN, instance);
            if (min == null || min.isZero()) {
                throw CdcBlockers.failure(CdcBlockers.SOURCE_NOT_ENABLED, "source.cdc." + instance,
                    "capture instance " + instance + " does not exist (sys.fn_cdc_get_min_lsn returned 0x00); "
                        + "enable CDC on " + stream.sourceTableName() + " or pass its capture instance");
            }
            describe();
            tally = new io.dpone.source.PolicyTally(batchColumns.size());
            Lsn firstUnread = handedOverAt != null ? handedOverAt
                : resume != null ? resume.lsn() : committed == null ? min : committed.next();
            if (from != null && firstUnread.compareTo(min) < 0) {
                throw resyncRequired(from, firstUnread, min);
            }
            if (hop == 0 && shapeDiffers && !allowCaptureInstanceDdl && successor(min) == null) {
                // read on (a column list that leaves columns out looks the same), but never silently
                LOG.warn("capture instance {} no longer matches {} (a column added, dropped or retyped since it was "
                    + "created): its changes are read without the table's new shape, so a new column does not arrive; "
                    + "create a second capture instance (sys.sp_cdc_enable_table) or run the stream with "
                    + "--allow-capture-instance-ddl (docs/cdc.md, \"Schema changes\")", instance,
                    stream.sourceTableName());
            }
            if (hop == 0 && shapeDiffers && allowCaptureInstanceDdl && successor(min) == null) {
                // created as soon as a tick sees the mismatch, also when nothing is left to read: the changes before
                // its start LSN are the ones that miss the table's new columns
                createSuccessor();
            }
            Lsn max = ChangeTableSql.lsn(connection, ChangeTableSql.MAX_LSN, null);
            if (max == null || (committed != null && resume == null && max.compareTo(committed) <= 0)) {
                return new CdcBatch(max == null ? null : max.hex(), null, List.of());
            }
            // a second capture instance of the table takes over at its start LSN once this one no longer matches
            // the table: below it this instance is read, at and above it the new one (never both)
            Successor next = hop == 0 && shapeDiffers ? successor(min) : null;
            if (next != null && firstUnread.compareTo(next.start()) >= 0) {
                instance = next.name();
                continue;
            }
            Lsn upTo = next != null && next.start().compareTo(max) <= 0 ? next.start().previous() : max;
            List<Row> rows = new ArrayList<>();
            if (resume != null && handedOverAt == null) {
                try (PreparedStatement st = connection.prepareStatement(sql.insideLsn(maxEvents + 1))) {
                    st.setBytes(1, resume.lsn().bytes());
                    st.setInt(2, resume.commandId());
                    st.setInt(3, resume.commandId());
                    st.setBytes(4, resume.seqval());
                    st.setBytes(5, resume.seqval());
                    st.setInt(6, resume.operation());
                    collect(st, rows, maxEvents + 1, resume);
                }
            }
            if (rows.size() <= maxEvents) {
                boolean fromStart = handedOverAt != null || (committed == null && resume == null);
                String text = fromStart ? sql.fromLsn(maxEvents + 1 - rows.size())
                    : sql.afterLsn(maxEvents + 1 - rows.size());
                try (PreparedStatement st = connection.prepareStatement(text)) {
                    st.setBytes(1, (handedOverAt != null ? handedOverAt : fromStart ? min
                        : resume != null ? resume.lsn() : committed).bytes());
                    st.setBytes(2, upTo.bytes());
                    collect(st, rows, maxEvents + 1, null);
                }
            }
            if (rows.isEmpty() && next != null && upTo.compareTo(max) < 0) {
                // nothing left below the new instance's start: the new instance is read from its start on
                handedOverAt = next.start();
                instance = next.name();
                continue;
            }
            return batch(rows, maxEvents, upTo, max, from, committed, firstUnread);
        }
    }

    /** The metadata of a snapshot row of a table added to a multi-table stream. */
    private static final RowValues.Shape SNAPSHOT_METADATA = RowValues.Shape.of(List.of("backend", "capture_instance",
        "snapshot"));

    /**
     * A table added to a running multi-table stream: its rows as they are now, as {@code insert} changes at the
     * hand-over position {@code P = max(stream position, min_lsn - 1)} ({@link SnapshotBoundary}'s floor), for the
     * stream to read the table's changes after {@code P} from then on. The batch's next offset holds {@code P}.
     *
     * <p>Exact as a snapshot hand-over is: every change at or below {@code P} committed before this read began (the
     * stream's position was committed earlier; a change below the capture instance's start was committed before CDC
     * was enabled on the table, so before this read), and every change above it is read by the stream and ranks above
     * the snapshot's rows. A row's {@code sequence} is a 63-bit hash of its key, so its event id is the same in every
     * re-read at {@code P}: a snapshot applied again after a crash before the commit writes only the keys the log does
     * not hold yet (a key's older value, already held, is overtaken by its changes after {@code P}).
     *
     * @param stream the stream's committed offset (null before its first commit)
     */
    public CdcBatch snapshot(CdcOffset stream) {
        try {
            Lsn min = ChangeTableSql.lsn(connection, ChangeTableSql.MIN_LSN, captureInstance);
            if (min == null || min.isZero()) {
                throw CdcBlockers.failure(CdcBlockers.SOURCE_NOT_ENABLED, "source.cdc." + captureInstance,
                    "capture instance " + captureInstance + " does not exist (sys.fn_cdc_get_min_lsn returned 0x00); "
                        + "enable CDC on " + this.stream.sourceTableName() + " before it joins the stream");
            }
            Lsn floor = min.previous();
            Lsn committed = stream == null ? null : Lsn.of(stream.position());
            Lsn at = committed == null || committed.compareTo(floor) < 0 ? floor : committed;
            instance = captureInstance;
            describe();
            tally = new io.dpone.source.PolicyTally(batchColumns.size());
            List<PayloadColumns.Column> payload = columns.columns();
            String select = "SELECT " + String.join(", ", payload.stream().map(c -> c.selectItem(null)).toList())
                + " FROM " + SqlServerDialect.quote(this.stream.sourceSchema()) + "."
                + SqlServerDialect.quote(this.stream.sourceTable());
            List<String> names = payload.stream().map(PayloadColumns.Column::name).toList();
            int[] keyAt = this.stream.uniqueKeys().stream().mapToInt(names::indexOf).toArray();
            String position = at.hex();
            List<CdcEvent> events = new ArrayList<>();
            try (java.sql.Statement st = connection.createStatement()) {
                st.setFetchSize(10_000);
                try (ResultSet rs = st.executeQuery(select)) {
                    while (rs.next()) {
                        Object[] data = new Object[payload.size()];
                        for (int i = 0; i < data.length; i++) {
                            data[i] = payload.get(i).read(rs, 1 + i, tally, i);
                        }
                        List<Object> key = new ArrayList<>(keyAt.length);
                        for (int k : keyAt) {
                            key.add(data[k]);
                        }
                        long sequence = Long.parseUnsignedLong(io.dpone.cdc.CdcHashes.sha256Hex(
                            io.dpone.cdc.CdcHashes.canonicalJson(key)).substring(0, 16), 16) & Long.MAX_VALUE;
                        events.add(new CdcEvent(CdcOperation.insert, position, sequence, this.stream.sourceSchema(),
                            this.stream.sourceTable(), dataShape.row(data),
                            SNAPSHOT_METADATA.row(new Object[] {BACKEND, captureInstance, Boolean.TRUE})));
                    }
                }
            }
            events.sort(CdcEvent.ORDER);
            return new CdcBatch(null, new CdcOffset(BACKEND, position, true), events, batchColumns,
                tally.changedByName(batchColumns));
        } catch (SQLException e) {
            throw new DponeException(BlockerCode.SOURCE_READ_FAILED, "source." + this.stream.sourceTableName(),
                "cannot read the snapshot of " + this.stream.sourceTableName() + " (SQLState " + e.getSQLState()
                    + ")");
        }
    }

    private DponeException resyncRequired(CdcOffset from, Lsn firstUnread, Lsn min) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("capture_instance", instance);
        details.put("checkpoint_position", from.token());
        details.put("first_unread_lsn", firstUnread.hex());
        details.put("min_lsn", min.hex());
        String cleanedBefore = lsnTime(min);
        if (cleanedBefore != null) {
            details.put("cleaned_up_before", cleanedBefore);
        }
        return new DponeException(CdcBlockers.blocker(CdcBlockers.CDC_RESYNC_REQUIRED, "source.cdc."
            + instance, "the checkpoint's next LSN " + firstUnread.hex() + " is below the capture "
            + "instance's minimum LSN " + min.hex() + ": the changes committed after the checkpoint and before "
            + (cleanedBefore == null ? "that LSN" : cleanedBefore + " (the server's clock)") + " were cleaned "
            + "up before they were read, and how many there were is no longer on the server; nothing was read. "
            + HandOverHint.text(stream.pipelineName()), details));
    }

    /** A later capture instance of the stream's table and its start LSN. */
    private record Successor(String name, Lsn start) {
    }

    /** A capture instance of the stream's table as {@code cdc.change_tables} lists it (start null: not established). */
    private record Listed(String name, Lsn start) {
    }

    /** The capture instances of the stream's table ({@code cdc.change_tables}), names that are identifiers only. */
    private List<Listed> listed() throws SQLException {
        List<Listed> out = new ArrayList<>();
        try (PreparedStatement st = connection.prepareStatement(ChangeTableSql.INSTANCES)) {
            st.setString(1, SqlServerDialect.quote(stream.sourceSchema()) + "."
                + SqlServerDialect.quote(stream.sourceTable()));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    String name = rs.getString(1);
                    byte[] lsn = rs.getBytes(2);
                    if (name != null && io.dpone.manifest.Identifier.PATTERN.matcher(name).matches()) {
                        out.add(new Listed(name, lsn == null ? null : Lsn.of(lsn)));
                    }
                }
            }
        }
        return out;
    }

    /**
     * The capture instance of the stream's table created after the one being read ({@code cdc.change_tables}: a
     * start LSN above {@code start}, the current instance's), or null. SQL Server allows two per table.
     */
    private Successor successor(Lsn start) throws SQLException {
        Successor found = null;
        for (Listed l : listed()) {
            if (l.start() == null || l.name().equalsIgnoreCase(instance)) {
                continue;
            }
            if (l.start().compareTo(start) > 0 && (found == null || l.start().compareTo(found.start()) < 0)) {
                found = new Successor(l.name(), l.start());
            }
        }
        return found;
    }

    /**
     * With {@code --allow-capture-instance-ddl}: the instance being read no longer matches the table and the table
     * has no later one, so the reader creates it ({@link CaptureInstanceDdl}, named {@code nextName(instance)}); the
     * hand-over follows once {@code cdc.change_tables} gives its start LSN (until then ticks read on from the
     * instance they read). Idempotent: an instance of that name already listed (created by an
     * earlier tick that crashed before its commit, or by a tick running at the same moment) is never created again.
     */
    private void createSuccessor() throws SQLException {
        String name;
        try {
            name = CaptureInstanceDdl.nextName(instance);
        } catch (IllegalArgumentException e) {
            throw CdcBlockers.failure(CdcBlockers.SCHEMA_CHANGED, "source.cdc." + instance, "capture instance "
                + instance + " no longer matches " + stream.sourceTableName() + " and its successor's name is not "
                + "an identifier; create the second capture instance yourself (docs/cdc.md, \"Schema changes\")");
        }
        List<Listed> all = listed();
        if (all.stream().anyMatch(l -> l.name().equalsIgnoreCase(name))) {
            return; // created before; its start LSN is not above this one's yet (the capture job sets it)
        }
        if (all.stream().anyMatch(l -> l.start() == null && !l.name().equalsIgnoreCase(instance))) {
            return; // another instance (an operator's) the capture job has not started yet: the successor once it has
        }
        if (all.size() >= 2) {
            throw new DponeException(CdcBlockers.blocker(CdcBlockers.SCHEMA_CHANGED, "source.cdc." + instance,
                "capture instance " + instance + " no longer matches " + stream.sourceTableName() + ", and the table "
                    + "already has two capture instances (" + String.join(", ", all.stream().map(Listed::name)
                    .toList()) + "), none created after it: SQL Server allows two. Disable the one no stream reads "
                    + "(sys.sp_cdc_disable_table) and run the tick again; nothing was read",
                Map.of("capture_instance", instance, "capture_instances", all.stream().map(Listed::name).toList())));
        }
        try {
            CaptureInstanceDdl.enable(connection, stream, instance, name);
        } catch (SQLException e) {
            if (listed().stream().anyMatch(l -> l.name().equalsIgnoreCase(name))) {
                return; // another tick created it at the same moment
            }
            throw CaptureInstanceDdl.failed(stream, instance, name, e);
        }
    }

    /**
     * The batch of {@code rows} read up to {@code upTo} ({@code max}, or just below a later capture instance's start
     * LSN); {@code max} is the high watermark. Its next offset names the instance read when it is not the stream's
     * configured one.
     */
    private CdcBatch batch(List<Row> rows, int maxEvents, Lsn upTo, Lsn highWatermark, CdcOffset from, Lsn committed,
                           Lsn firstUnread) {
        boolean snapshot = from != null && from.snapshotComplete();
        String recorded = instance.equals(captureInstance) ? null : instance;
        Lsn max = upTo;
        Row peek = rows.size() > maxEvents ? rows.remove(maxEvents) : null;
        if (rows.isEmpty()) {
            // nothing after the checkpoint up to max_lsn: the stream is read through max_lsn (and never commits
            // below min_lsn - 1, so a capture instance newer than max_lsn does not look cleaned up next time)
            Lsn through = max.compareTo(firstUnread.previous()) >= 0 ? max : firstUnread.previous();
            boolean advances = committed == null || through.compareTo(committed) > 0;
            return new CdcBatch(highWatermark.hex(), advances ? new CdcOffset(BACKEND, through.hex(), snapshot, null,
                recorded) : null, List.of());
        }
        List<CdcEvent> events = new ArrayList<>(rows.size());
        rows.forEach(r -> events.add(r.event));
        Row last = rows.get(rows.size() - 1);
        CdcOffset next;
        if (peek != null && peek.lsn.equals(last.lsn)) {
            CdcResumePoint point = new CdcResumePoint(last.lsn, last.commandId, last.seqval, last.operation,
                last.event.sequence());
            next = new CdcOffset(BACKEND, last.lsn.previous().hex(), snapshot, point.toJson(), recorded);
        } else {
            next = new CdcOffset(BACKEND, (peek == null ? max : last.lsn).hex(), snapshot, null, recorded);
        }
        return new CdcBatch(highWatermark.hex(), next, events, batchColumns, tally.changedByName(batchColumns));
    }

    private void collect(PreparedStatement st, List<Row> rows, int limit, CdcResumePoint resume) throws SQLException {
        st.setFetchSize(Math.min(limit, 10_000));
        List<PayloadColumns.Column> payload = columns.columns();
        try (ResultSet rs = st.executeQuery()) {
            while (rows.size() < limit && rs.next()) {
                // the last row read only tells whether the batch ends inside an LSN: what a policy did to it counts
                // in the batch that reads it
                io.dpone.source.PolicyTally counts = rows.size() == limit - 1
                    ? new io.dpone.source.PolicyTally(payload.size()) : tally;
                byte[] lsnBytes = rs.getBytes(1);
                Row before = rows.isEmpty() ? null : rows.get(rows.size() - 1);
                // the rows of one LSN share one parsed Lsn
                Lsn lsn = before != null && java.util.Arrays.equals(before.lsnBytes, lsnBytes) ? before.lsn
                    : Lsn.of(lsnBytes);
                int commandId = rs.getInt(2);
                byte[] seqval = rs.getBytes(3);
                int op = rs.getInt(4);
                Row previous = before;
                boolean sameLsn = previous != null && previous.lsn.equals(lsn);
                long ordinal = sameLsn ? previous.event.sequence() + 1
                    : resume != null && resume.lsn().equals(lsn) ? resume.ordinal() + 1 : 0;
                // the rows of one LSN share its position text (formatted once per LSN, not per row)
                String position = sameLsn ? previous.event.position() : lsn.hex();
                Object[] data = new Object[payload.size()];
                for (int i = 0; i < data.length; i++) {
                    data[i] = payload.get(i).read(rs, 5 + i, counts, i);
                }
                Object[] metadata = {BACKEND, instance, Lsn.hex(seqval), commandId};
                // both rows share their batch's column names: the event holds only this change's values
                rows.add(new Row(lsnBytes, lsn, commandId, seqval, op, new CdcEvent(operation(op), position,
                    ordinal, stream.sourceSchema(), stream.sourceTable(), dataShape.row(data),
                    METADATA.row(metadata))));
            }
        }
    }

    private CdcOperation operation(int code) {
        return switch (code) {
            case 1 -> CdcOperation.delete;
            case 2 -> CdcOperation.insert;
            case 3 -> CdcOperation.update_before;
            case 4 -> CdcOperation.update_after;
            default -> throw new DponeException(BlockerCode.SOURCE_READ_FAILED, "source.cdc." + instance
                + ".__$operation", "unknown CDC operation code " + code);
        };
    }

    /** {@code sys.fn_cdc_map_lsn_to_time} of the committed LSN against the server's clock. */
    @Override
    public java.util.OptionalLong millisBehindSource(CdcOffset committed, String highWatermark) {
        return SourceLag.of(connection, committed, highWatermark,
            "SELECT sys.fn_cdc_map_lsn_to_time(?), CURRENT_TIMESTAMP",
            (st, position) -> st.setBytes(1, Lsn.parse(position).bytes()));
    }

    /** The commit time of {@code lsn} on the server ({@code sys.fn_cdc_map_lsn_to_time}), or null when unknown. */
    private String lsnTime(Lsn lsn) {
        try (PreparedStatement st = connection.prepareStatement("SELECT sys.fn_cdc_map_lsn_to_time(?)")) {
            st.setBytes(1, lsn.bytes());
            try (ResultSet rs = st.executeQuery()) {
                java.sql.Timestamp t = rs.next() ? rs.getTimestamp(1) : null;
                return t == null ? null : t.toLocalDateTime().toString();
            }
        } catch (SQLException e) {
            return null;
        }
    }

    private void describe() throws SQLException {
        if (columns != null && instance.equals(describedFor)) {
            return;
        }
        PayloadColumns found = PayloadColumns.describe(connection.getMetaData(), "cdc",
            ChangeTableSql.changeTable(instance), null, policies, stream.uniqueKeys());
        if (found.columns().isEmpty()) {
            throw CdcBlockers.failure(CdcBlockers.SOURCE_NOT_ENABLED, "source.cdc." + instance,
                "the change table of capture instance " + instance + " is not readable");
        }
        List<String> missing = stream.uniqueKeys().stream().filter(k -> found.column(k).isEmpty()).toList();
        if (!missing.isEmpty()) {
            throw CdcBlockers.failure(CdcBlockers.INVALID_ARGUMENT, "--unique-key",
                "unique-key column(s) " + missing + " are not captured by " + instance);
        }
        PayloadColumns.refuseConvertedKeys(stream.uniqueKeys().stream().map(k -> found.column(k).orElseThrow()).toList());
        // the change table's columns allow NULL whatever the source says: nullability is the source table's
        PayloadColumns source = PayloadColumns.describe(connection.getMetaData(), stream.sourceSchema(),
            stream.sourceTable(), null, policies, stream.uniqueKeys());
        found.refuseStrayPolicies(policies, stream.uniqueKeys(), "capture instance " + instance);
        // the events carry the unique keys under the stream's spelling
        List<PayloadColumns.Column> named = new ArrayList<>();
        for (PayloadColumns.Column c : found.columns()) {
            String key = stream.uniqueKeys().stream().filter(k -> k.equalsIgnoreCase(c.name())).findFirst()
                .orElse(c.name());
            boolean nullable = source.column(c.name()).map(PayloadColumns.Column::nullable).orElse(true);
            PayloadColumns.Column column = c.named(key).nullable(nullable);
            // a rowversion is binary(8) in the change table (as SQL Server documents): the source table's type holds
            if (source.column(c.name()).filter(s -> s.type() instanceof io.dpone.source.types.RowVersionType)
                .isPresent()) {
                column = column.typed(new io.dpone.source.types.RowVersionType());
            }
            named.add(column);
        }
        batchColumns = named.stream().map(PayloadColumns.Column::sourceColumn).toList();
        columns = new PayloadColumns(named, found.primaryKey());
        List<String> names = named.stream().map(PayloadColumns.Column::name).toList();
        dataShape = RowValues.Shape.of(names);
        sql = new ChangeTableSql(instance, named.stream().map(c -> c.selectItem(null)).toList());
        describedFor = instance;
        // the table changed shape since the instance was created (a column added, dropped or retyped): a second
        // capture instance, if the operator created one, takes over
        shapeDiffers = source.columns().size() != named.size() || named.stream().anyMatch(c -> source.column(c.name())
            .filter(s -> s.type().equals(c.type())).isEmpty());
    }

    private record Row(byte[] lsnBytes, Lsn lsn, int commandId, byte[] seqval, int operation, CdcEvent event) {
    }
}
