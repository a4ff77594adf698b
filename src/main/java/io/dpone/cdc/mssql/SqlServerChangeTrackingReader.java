package io.dpone.cdc.mssql;

import io.dpone.cdc.CdcBatch;
import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.CdcEvent;
import io.dpone.cdc.CdcHashes;
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
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads SQL Server Change Tracking: {@code CHANGETABLE(CHANGES [schema].[table], @saved_version)} joined to the
 * table for the current values, up to {@code CHANGE_TRACKING_CURRENT_VERSION()} read at the start of the batch,
 * ordered by {@code SYS_CHANGE_VERSION} then the primary key.
 *
 * <p>Events: {@code position} = {@code SYS_CHANGE_VERSION} (decimal), operation {@code I} insert, {@code U}
 * update, {@code D} delete (data = the primary key only); {@code data} of inserts and updates = the row's current
 * values (Change Tracking keeps no images: a row changed again after the version was read carries its newer
 * values now and its newer version later). Change Tracking returns one net change per key, so the changes of one
 * version touch distinct keys and commute; {@code sequence} is a 63-bit hash of the key (stable across re-reads,
 * which keeps a replayed event's identity).
 *
 * <p>Offsets: the token is the last fully read version ({@code CURRENT_VERSION} once everything is read); a batch
 * that ends inside a version {@code V} commits {@code V - 1} with a resume point naming the last key
 * ({@link CtResumePoint}). When the saved version is below {@code CHANGE_TRACKING_MIN_VALID_VERSION}, changes were
 * cleaned up unread: {@code cdc_runtime.change_tracking_resync_required}, nothing is read.
 */
public final class SqlServerChangeTrackingReader implements CdcSourceReader {
    public static final String BACKEND = "mssql_change_tracking";
    /** The metadata of a change, and of an update or insert whose row was deleted before it was read (read-only). */
    private static final RowValues PLAIN = RowValues.Shape.of(List.of("backend")).row(new Object[] {BACKEND});
    private static final RowValues MISSING = RowValues.Shape.of(List.of("backend", "row_missing"))
        .row(new Object[] {BACKEND, true});
    static final String CURRENT_VERSION = "SELECT CHANGE_TRACKING_CURRENT_VERSION()";
    static final String MIN_VALID_VERSION = "SELECT CHANGE_TRACKING_MIN_VALID_VERSION(OBJECT_ID(?))";

    private final Connection connection;
    private final StreamIdentity stream;
    private final ChangeTrackingSql dialect;
    private final String quotedTable;
    private final io.dpone.manifest.ValuePolicies policies;
    /** What the declared value policies changed in the batch being read. */
    private io.dpone.source.PolicyTally tally;
    private List<PayloadColumns.Column> key;
    private List<PayloadColumns.Column> values;
    /** The data columns of a delete (the key) and of any other change (the key, then the other columns). */
    private RowValues.Shape keyShape;
    private RowValues.Shape rowShape;
    /** The payload columns as the batches declare them (keys first, then the other columns in table order). */
    private List<io.dpone.source.SourceColumn> batchColumns = List.of();

    public SqlServerChangeTrackingReader(Connection connection, StreamIdentity stream, ChangeTrackingSql dialect) {
        this(connection, stream, dialect, io.dpone.manifest.ValuePolicies.NONE);
    }

    /** @param policies what the reader does with a value ClickHouse cannot hold (refuse unless declared) */
    public SqlServerChangeTrackingReader(Connection connection, StreamIdentity stream, ChangeTrackingSql dialect,
                                         io.dpone.manifest.ValuePolicies policies) {
        this.policies = policies;
        this.quotedTable = SqlServerDialect.quote(stream.sourceSchema()) + "."
            + SqlServerDialect.quote(stream.sourceTable());
        this.connection = connection;
        this.stream = stream;
        this.dialect = dialect;
    }

    @Override
    public CdcBatch readBatch(CdcOffset from, int maxEvents) {
        if (maxEvents < 1) {
            throw new IllegalArgumentException("maxEvents must be positive");
        }
        try {
            return read(from, maxEvents);
        } catch (SQLException e) {
            throw ReadFailures.readFailed(connection, e, "source.change_tracking."
                + stream.sourceTableName(), "cannot read the Change Tracking changes of " + stream.sourceTableName()
                + " (SQLState " + e.getSQLState() + ")");
        }
    }

    private CdcBatch read(CdcOffset from, int maxEvents) throws SQLException {
        describe(from != null);
        tally = new io.dpone.source.PolicyTally(batchColumns.size());
        Long current = scalar(CURRENT_VERSION, null);
        Long minValid = scalar(MIN_VALID_VERSION, quotedTable);
        if (current == null || minValid == null) {
            throw CdcBlockers.failure(CdcBlockers.SOURCE_NOT_ENABLED, "source.change_tracking."
                + stream.sourceTableName(), "Change Tracking is not enabled for " + stream.sourceTableName()
                + " (or its database); enable it or use --backend mssql_cdc");
        }
        CtResumePoint resume = from == null || from.resume() == null ? null
            : CtResumePoint.parse(from.resume(), key.size());
        Long saved = from == null ? null : from.position().value().longValueExact();
        if (saved != null && saved < minValid) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("saved_version", saved);
            details.put("min_valid_version", minValid);
            details.put("versions_cleaned_up", minValid - 1 - saved);
            throw new DponeException(CdcBlockers.blocker(CdcBlockers.CHANGE_TRACKING_RESYNC_REQUIRED,
                "source.change_tracking." + stream.sourceTableName(), "the saved version " + saved + " is below "
                + "CHANGE_TRACKING_MIN_VALID_VERSION " + minValid + " of " + stream.sourceTableName() + ": the "
                + "changes of up to " + (minValid - 1 - saved) + " committed version(s) after the saved one were "
                + "cleaned up before they were read; nothing was read. " + HandOverHint.text(stream.pipelineName()),
                details));
        }
        boolean snapshot = from != null && from.snapshotComplete();
        if (saved != null && resume == null && current <= saved) {
            return new CdcBatch(Long.toString(current), null, List.of());
        }
        List<Row> rows = rows(saved, resume, current, maxEvents + 1);
        Row peek = rows.size() > maxEvents ? rows.remove(maxEvents) : null;
        if (rows.isEmpty()) {
            boolean advances = saved == null || current > saved;
            return new CdcBatch(Long.toString(current), advances ? new CdcOffset(BACKEND, Long.toString(current),
                snapshot) : null, List.of());
        }
        Row last = rows.get(rows.size() - 1);
        CdcOffset next;
        if (peek != null && peek.version == last.version) {
            next = new CdcOffset(BACKEND, Long.toString(last.version - 1), snapshot,
                CtResumePoint.toJson(last.version, last.keyValues));
        } else {
            next = new CdcOffset(BACKEND, Long.toString(peek == null ? current : last.version), snapshot);
        }
        return new CdcBatch(Long.toString(current), next, rows.stream().map(Row::event).toList(), batchColumns,
            tally.changedByName(batchColumns));
    }

    private List<Row> rows(Long saved, CtResumePoint resume, long current, int limit) throws SQLException {
        String keyCols = key.stream().map(c -> "[ct]." + SqlServerDialect.quote(c.name()))
            .collect(Collectors.joining(", "));
        String valueCols = values.stream().map(c -> c.selectItem("[t]"))
            .collect(Collectors.joining(", "));
        String join = key.stream().map(c -> "[t]." + SqlServerDialect.quote(c.name()) + " = [ct]."
            + SqlServerDialect.quote(c.name())).collect(Collectors.joining(" AND "));
        String sql = "SELECT TOP (" + limit + ") [ct].[SYS_CHANGE_VERSION], [ct].[SYS_CHANGE_OPERATION], " + keyCols
            + ", CASE WHEN [t]." + SqlServerDialect.quote(key.get(0).name()) + " IS NULL THEN 0 ELSE 1 END"
            + (valueCols.isEmpty() ? "" : ", " + valueCols)
            + " FROM " + dialect.changesSince(stream.sourceSchema(), stream.sourceTable()) + " AS [ct]"
            + " LEFT OUTER JOIN " + quotedTable + " AS [t] ON " + join
            + " WHERE [ct].[SYS_CHANGE_VERSION] <= ?"
            + (resume == null ? "" : " AND ([ct].[SYS_CHANGE_VERSION] > ? OR ([ct].[SYS_CHANGE_VERSION] = ? AND "
                + KeyParameters.after("[ct]", key) + "))")
            + " ORDER BY [ct].[SYS_CHANGE_VERSION], " + keyCols;
        List<Row> rows = new ArrayList<>();
        try (PreparedStatement st = connection.prepareStatement(sql)) {
            if (saved == null) {
                st.setNull(1, Types.BIGINT);
            } else {
                st.setLong(1, saved);
            }
            st.setLong(2, current);
            if (resume != null) {
                st.setLong(3, resume.version());
                st.setLong(4, resume.version());
                KeyParameters.bind(st, 5, key, resume.key());
            }
            st.setFetchSize(Math.min(limit, 10_000));
            try (ResultSet rs = st.executeQuery()) {
                while (rows.size() < limit && rs.next()) {
                    // the last row read only tells whether the batch ends inside a version: what a policy did to
                    // it counts in the batch that reads it
                    rows.add(row(rs, rows.size() == limit - 1 ? new io.dpone.source.PolicyTally(batchColumns.size())
                        : tally));
                }
            }
        }
        return rows;
    }

    private Row row(ResultSet rs, io.dpone.source.PolicyTally counts) throws SQLException {
        long version = rs.getLong(1);
        String op = rs.getString(2);
        // the columns in select order: key, presence, the other columns
        Object[] keyData = new Object[key.size()];
        for (int i = 0; i < keyData.length; i++) {
            keyData[i] = key.get(i).read(rs, 3 + i, counts, i);
        }
        List<Object> keyValues = Arrays.asList(keyData);
        boolean present = rs.getInt(3 + key.size()) == 1;
        CdcOperation operation = switch (op == null ? "" : op.trim().toUpperCase(Locale.ROOT)) {
            case "I" -> CdcOperation.insert;
            case "U" -> CdcOperation.update;
            case "D" -> CdcOperation.delete;
            default -> throw new DponeException(BlockerCode.SOURCE_READ_FAILED, "source.change_tracking."
                + stream.sourceTableName() + ".SYS_CHANGE_OPERATION", "unknown Change Tracking operation");
        };
        boolean rowMissing = operation != CdcOperation.delete && !present;
        if (rowMissing) {
            // deleted after the version was read, in the same read: its delete follows at a later version
            operation = CdcOperation.delete;
        }
        RowValues dataRow;
        if (operation == CdcOperation.delete) {
            dataRow = keyShape.row(keyData); // neither the event nor the row key changes the array
        } else {
            Object[] data = Arrays.copyOf(keyData, key.size() + values.size());
            for (int i = 0; i < values.size(); i++) {
                data[key.size() + i] = values.get(i).read(rs, 4 + key.size() + i, counts, key.size() + i);
            }
            dataRow = rowShape.row(data);
        }
        RowValues metadata = rowMissing ? MISSING : PLAIN;
        String keyJson = CdcHashes.canonicalJson(keyValues);
        long sequence = Long.parseUnsignedLong(CdcHashes.sha256Hex(keyJson).substring(0, 16), 16) & Long.MAX_VALUE;
        return new Row(version, keyValues, new CdcEvent(operation, Long.toString(version), sequence,
            stream.sourceSchema(), stream.sourceTable(), dataRow, metadata));
    }

    /**
     * The commit time of the committed version from {@code sys.dm_tran_commit_table} (needs {@code VIEW SERVER
     * STATE}; without it the lag stays unknown) against the server's clock.
     */
    @Override
    public java.util.OptionalLong millisBehindSource(CdcOffset committed, String highWatermark) {
        return SourceLag.of(connection, committed, highWatermark,
            "SELECT (SELECT MAX(commit_time) FROM sys.dm_tran_commit_table WHERE commit_ts = ?), CURRENT_TIMESTAMP",
            (st, position) -> st.setLong(1, Long.parseLong(position)));
    }

    /** @param started the stream has a checkpoint: a key that no longer matches changed at the source */
    private void describe(boolean started) throws SQLException {
        if (key != null) {
            return;
        }
        PayloadColumns table = PayloadColumns.describe(connection.getMetaData(), stream.sourceSchema(),
            stream.sourceTable(), "[t]", policies, stream.uniqueKeys());
        if (table.columns().isEmpty() || table.primaryKey().isEmpty()) {
            throw CdcBlockers.failure(CdcBlockers.SOURCE_NOT_ENABLED, "source.change_tracking."
                + stream.sourceTableName(), stream.sourceTableName() + " does not exist or has no primary key "
                + "(Change Tracking needs one)");
        }
        Set<String> pk = table.primaryKey().stream().map(k -> k.toLowerCase(Locale.ROOT))
            .collect(Collectors.toSet());
        Set<String> uk = new HashSet<>();
        stream.uniqueKeys().forEach(k -> uk.add(k.toLowerCase(Locale.ROOT)));
        if (!pk.equals(uk)) {
            if (started) {
                throw new DponeException(CdcBlockers.blocker(CdcBlockers.SCHEMA_CHANGED, "source.columns."
                    + String.join(",", table.primaryKey()), "stream " + stream.pipelineName() + ": the primary key of "
                    + stream.sourceTableName() + " is now " + table.primaryKey() + ", not the stream's unique keys "
                    + stream.uniqueKeys() + "; nothing was read (docs/cdc.md, \"Schema changes\")",
                    java.util.Map.of("primary_key", table.primaryKey(), "unique_keys", stream.uniqueKeys())));
            }
            throw CdcBlockers.failure(CdcBlockers.INVALID_ARGUMENT, "--unique-key", "Change Tracking keys rows by "
                + "the primary key " + table.primaryKey() + "; --unique-key must name exactly those columns");
        }
        List<PayloadColumns.Column> k = new ArrayList<>();
        for (String name : table.primaryKey()) {
            PayloadColumns.Column c = table.column(name).orElseThrow();
            String spelled = stream.uniqueKeys().stream().filter(u -> u.equalsIgnoreCase(name)).findFirst()
                .orElseThrow();
            k.add(c.named(spelled));
        }
        PayloadColumns.refuseConvertedKeys(k);
        table.refuseStrayPolicies(policies, stream.uniqueKeys(), stream.sourceTableName());
        values = table.columns().stream().filter(c -> !pk.contains(c.name().toLowerCase(Locale.ROOT))).toList();
        key = k;
        keyShape = RowValues.Shape.of(key.stream().map(PayloadColumns.Column::name).toList());
        rowShape = RowValues.Shape.of(java.util.stream.Stream.concat(key.stream(), values.stream())
            .map(PayloadColumns.Column::name).toList());
        List<io.dpone.source.SourceColumn> declared = new ArrayList<>();
        k.forEach(c -> declared.add(c.sourceColumn()));
        values.forEach(c -> declared.add(c.sourceColumn()));
        batchColumns = List.copyOf(declared);
    }

    private Long scalar(String sql, String parameter) throws SQLException {
        try (PreparedStatement st = connection.prepareStatement(sql)) {
            if (parameter != null) {
                st.setString(1, parameter);
            }
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                long v = rs.getLong(1);
                return rs.wasNull() ? null : v;
            }
        }
    }

    private record Row(long version, List<Object> keyValues, CdcEvent event) {
    }
}
