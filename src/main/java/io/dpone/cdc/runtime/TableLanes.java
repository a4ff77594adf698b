package io.dpone.cdc.runtime;

import io.dpone.cdc.CdcApplyBatch;
import io.dpone.cdc.CdcBatch;
import io.dpone.cdc.CdcBatchPolicy;
import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.CdcEvent;
import io.dpone.cdc.CdcOffset;
import io.dpone.cdc.CdcPosition;
import io.dpone.cdc.CdcSinkApplier;
import io.dpone.cdc.CdcSourceReader;
import io.dpone.cdc.SinkReceipt;
import io.dpone.cdc.StreamIdentity;
import io.dpone.connect.Redactor;
import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import io.dpone.source.SourceColumn;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The tables of a multi-table stream, each a lane with its own single-table reader and CDC log applier, seen by the
 * {@code cdc_runtime_tick} route as one reader ({@link #reader()}) and one applier ({@link #applier()}), so the
 * route and its steps are those of a single-table stream: one offset loaded, one batch read, one idempotency check,
 * one apply, one offset committed after every table's apply is durable.
 *
 * <p><b>One bound.</b> The reader asks every lane for at most {@code maxEvents} changes after the stream's offset
 * (a lane reads its change table in LSN order). A lane that hit the cap is complete only below its last LSN; the
 * stream is complete through the lowest such point of all lanes. The batch ends on the highest commit LSN at or
 * below it whose changes, summed over every table, stay within the cap; its changes of every table are applied and
 * that LSN is the one offset committed, never with a resume point. A transaction spanning tables therefore lands in
 * one tick or not at all. When the first transaction alone is larger than the cap it is taken whole: the lanes that
 * stopped inside it read on (with their own resume points, in cap-sized reads) to its end.
 *
 * <p>What each lane did (changes read, the receipt of its log, whether it has changes left unread, and its blockers:
 * every blocker a lane raises carries {@code details.table}) is kept per tick for the report's {@code tables}.
 * Instances hold one tick's state: build one per tick.
 */
public final class TableLanes {
    /**
     * One table: its single-table identity (the stream's pipeline and backend), reader and log applier, and how it
     * takes its snapshot when it is added to a running stream ({@code snapshot}: given the stream's committed offset,
     * the table's rows as insert changes at its hand-over position, which the batch's next offset holds; null when
     * the lane cannot take one: it then starts at the stream's position without a snapshot).
     */
    public record Lane(StreamIdentity table, CdcSourceReader reader, CdcSinkApplier applier,
                       java.util.function.Function<CdcOffset, CdcBatch> snapshot) {
        public Lane(StreamIdentity table, CdcSourceReader reader, CdcSinkApplier applier) {
            this(table, reader, applier, null);
        }

        String name() {
            return table.sourceTableName();
        }
    }

    private final StreamIdentity stream;
    private final List<Lane> lanes;
    private final Map<String, List<SourceColumn>> columns = new HashMap<>();
    private final Map<String, Integer> read = new HashMap<>();
    private final Map<String, Boolean> pending = new HashMap<>();
    private final Map<String, SinkReceipt> receipts = new HashMap<>();
    /** The snapshots of the tables added in this tick, applied before their changes. */
    private final Map<String, CdcBatch> snapshots = new LinkedHashMap<>();
    private final Map<String, SinkReceipt> snapshotReceipts = new HashMap<>();
    /** How the stream's patterns resolved in this tick (the report's {@code table_selection}), or null. */
    private Map<String, Object> selection;

    public TableLanes(StreamIdentity stream, List<Lane> lanes) {
        if (!stream.isMulti() || lanes.size() != stream.tables().size()) {
            throw new IllegalArgumentException("one lane per table of a multi-table stream");
        }
        this.stream = stream;
        this.lanes = List.copyOf(lanes);
    }

    public List<Lane> lanes() {
        return lanes;
    }

    /** Changes of {@code table} ({@code schema.table}) in this tick's batch. */
    int read(String table) {
        return read.getOrDefault(table, 0);
    }

    /** True when {@code table} had changes beyond the batch's bound: it is behind after this tick. */
    boolean pending(String table) {
        return pending.getOrDefault(table, false);
    }

    /** True when {@code table} joined the stream in this tick with its own snapshot. */
    boolean added(String table) {
        return snapshots.containsKey(table);
    }

    /** The rows of {@code table}'s snapshot in this tick (0 unless it was added). */
    int snapshotRows(String table) {
        CdcBatch b = snapshots.get(table);
        return b == null ? 0 : b.changes().size();
    }

    /** The receipt of {@code table}'s snapshot in its log, or null when it took none in this tick. */
    SinkReceipt snapshotReceipt(String table) {
        return snapshotReceipts.get(table);
    }

    /** Records how the stream's table patterns resolved in this tick, for the report. */
    public TableLanes withSelection(Map<String, Object> report) {
        selection = report;
        return this;
    }

    /** The report's {@code table_selection}: how the patterns resolved (null for an explicit table list). */
    public Map<String, Object> selection() {
        return selection;
    }

    /** The receipt of {@code table}'s log in this tick, or null when nothing was applied to it. */
    SinkReceipt receipt(String table) {
        return receipts.get(table);
    }

    /** The reader of the whole stream. */
    public CdcSourceReader reader() {
        return new CdcSourceReader() {
            @Override
            public CdcBatch readBatch(CdcOffset from, int maxEvents) {
                return read(from, maxEvents);
            }

            @Override
            public OptionalLong millisBehindSource(CdcOffset committed, String highWatermark) {
                // one database, one log sequence: the commit time of the stream's one position
                return lanes.get(0).reader().millisBehindSource(committed, highWatermark);
            }
        };
    }

    /** The applier of the whole stream: each table's changes to its own log. */
    public CdcSinkApplier applier() {
        return (s, batch) -> apply(batch);
    }

    private CdcBatch read(CdcOffset fromOffset, int maxEvents) {
        // a multi-table offset never has a resume point: its resume holds each table's state (LaneStates)
        CdcOffset from = fromOffset == null ? null
            : new CdcOffset(fromOffset.backend(), fromOffset.token(), fromOffset.snapshotComplete());
        Map<String, LaneStates.Entry> recorded = fromOffset == null ? null : LaneStates.parse(fromOffset.resume());
        // where each lane reads from: the stream's position, or its own when it is ahead (a table added earlier whose
        // snapshot position the stream has not reached), or the snapshot position of a table added in this tick
        Map<String, String> laneFrom = new LinkedHashMap<>();
        // the capture instance each table reads when it is not its configured one (a recorded hand-over), else null
        Map<String, String> laneInstance = new HashMap<>();
        for (Lane lane : lanes) {
            LaneStates.Entry e = recorded == null ? null : recorded.get(lane.name());
            laneInstance.put(lane.name(), e == null ? null : e.captureInstance());
            if (e != null && !e.lane().equals(lane.table().streamId())) {
                throw tagged(lane, List.of(CdcBlockers.blocker(CdcBlockers.CHECKPOINT_STREAM_MISMATCH, "offset.resume",
                    "the stream's checkpoint recorded " + lane.name() + " with another CDC log or other unique keys; "
                        + "nothing was read. Restore its --table entry, or remove it from the stream for one tick "
                        + "(its state is dropped) and add it again: it then starts with a new snapshot",
                    Map.of("recorded_lane", e.lane(), "lane", lane.table().streamId()))));
            }
            if (from == null) {
                laneFrom.put(lane.name(), null); // the stream's first tick: every table from its capture's start
            } else if (recorded != null && e == null && lane.snapshot() != null) {
                CdcBatch snap = inLane(lane, () -> lane.snapshot().apply(from));
                snapshots.put(lane.name(), snap);
                laneFrom.put(lane.name(), snap.nextOffset().token());
            } else if (e != null && e.from() != null && CdcPosition.compare(e.from(), from.token()) > 0) {
                laneFrom.put(lane.name(), e.from());
            } else {
                laneFrom.put(lane.name(), from.token());
            }
        }
        List<CdcBatch> subs = new ArrayList<>(lanes.size());
        String highWatermark = null;
        BigInteger completeThrough = null; // null: every lane read everything there is
        CdcOffset completeOffset = null;
        for (Lane lane : lanes) {
            String at = laneFrom.get(lane.name());
            CdcOffset laneOffset = at == null ? null : new CdcOffset(from.backend(), at, from.snapshotComplete(), null,
                laneInstance.get(lane.name()));
            CdcBatch sub = inLane(lane, () -> lane.reader().readBatch(laneOffset, maxEvents));
            subs.add(sub);
            columns.put(lane.name(), sub.columns());
            if (sub.highWatermark() != null) {
                highWatermark = sub.highWatermark();
            }
            if (sub.nextOffset() != null) {
                BigInteger through = sub.nextOffset().position().value();
                if (completeThrough == null || through.compareTo(completeThrough) < 0) {
                    completeThrough = through;
                    completeOffset = sub.nextOffset();
                }
            }
        }
        TreeMap<BigInteger, Integer> perPosition = new TreeMap<>();
        Map<BigInteger, String> positionText = new HashMap<>();
        for (CdcBatch sub : subs) {
            for (CdcEvent e : sub.changes()) {
                BigInteger p = e.positionValue().value();
                perPosition.merge(p, 1, Integer::sum);
                positionText.putIfAbsent(p, e.position());
            }
        }
        if (perPosition.isEmpty()) {
            // nothing to read: the lanes agree on how far the stream moves (the source's maximum), if at all
            lanes.forEach(l -> read.put(l.name(), 0));
            String token = completeOffset != null ? completeOffset.token() : from == null ? null : from.token();
            if (token == null) {
                return new CdcBatch(highWatermark, null, List.of());
            }
            boolean snap = completeOffset != null ? completeOffset.snapshotComplete() : from.snapshotComplete();
            // the stream never moves back: a lane reading ahead of it (its own position) does not pull it forward
            if (from != null && CdcPosition.compare(token, from.token()) < 0) {
                token = from.token();
            }
            return new CdcBatch(highWatermark, next(token, snap, laneFrom, instances(subs, laneInstance, token,
                null)), List.of());
        }
        // the highest position at or below the complete point whose changes, summed over every table, fit the cap
        BigInteger bound = null;
        int taken = 0;
        int known = 0;
        boolean full = false;
        for (Map.Entry<BigInteger, Integer> p : perPosition.entrySet()) {
            if (completeThrough != null && p.getKey().compareTo(completeThrough) > 0) {
                break;
            }
            known += p.getValue();
            if (!full && taken + p.getValue() <= maxEvents) {
                taken += p.getValue();
                bound = p.getKey();
            } else {
                full = true;
            }
        }
        String nextToken;
        boolean oversized = bound == null;
        if (oversized) {
            // the first transaction alone is larger than the cap (or no lane read it to its end): taken whole
            bound = perPosition.firstKey();
            nextToken = positionText.get(bound);
            readOn(subs, bound, maxEvents);
        } else if (taken == known && completeOffset != null) {
            // every change the lanes know of fits: the stream is read through the lowest complete point
            nextToken = completeOffset.token();
            bound = completeThrough;
        } else {
            nextToken = positionText.get(bound);
        }
        List<CdcEvent> events = new ArrayList<>();
        for (int i = 0; i < lanes.size(); i++) {
            Lane lane = lanes.get(i);
            int n = 0;
            // a lane whose read stopped below the high watermark (it hit the cap) has changes it did not read
            boolean beyond = subs.get(i).nextOffset() != null && highWatermark != null
                && CdcPosition.compare(subs.get(i).nextOffset().token(), highWatermark) < 0;
            for (CdcEvent e : subs.get(i).changes()) {
                if (e.positionValue().value().compareTo(bound) <= 0) {
                    events.add(e);
                    n++;
                } else {
                    beyond = true;
                }
            }
            read.put(lane.name(), n);
            pending.put(lane.name(), beyond);
        }
        events.sort(CdcEvent.ORDER);
        boolean snapshot = from != null && from.snapshotComplete();
        if (from != null && CdcPosition.compare(nextToken, from.token()) < 0) {
            nextToken = from.token();
        }
        return new CdcBatch(highWatermark, next(nextToken, snapshot, laneFrom, instances(subs, laneInstance,
            nextToken, bound)), events, List.of(), null);
    }

    /**
     * The capture instance each table reads after this batch: the one its reader's next offset names (a hand-over to
     * a second capture instance) once the stream's {@code token} reaches that offset, or once a change of the batch
     * (at or below {@code bound}) was read from it, so the stream's position lies at or above the instance's start;
     * else the one recorded before ({@code recorded}; null: the configured one). A recorded instance therefore never
     * names one the stream's position lies below, and the next tick's reader finds the hand-over again until then.
     */
    private Map<String, String> instances(List<CdcBatch> subs, Map<String, String> recorded, String token,
                                          BigInteger bound) {
        Map<String, String> out = new HashMap<>();
        for (int i = 0; i < lanes.size(); i++) {
            Lane lane = lanes.get(i);
            CdcOffset next = subs.get(i).nextOffset();
            String read = next == null ? null : next.captureInstance();
            boolean reached = next != null && CdcPosition.compare(next.token(), token) <= 0;
            if (!reached && read != null && bound != null) {
                for (CdcEvent e : subs.get(i).changes()) {
                    if (e.positionValue().value().compareTo(bound) <= 0
                        && read.equals(e.metadata().get("capture_instance"))) {
                        reached = true;
                        break;
                    }
                }
            }
            out.put(lane.name(), reached ? read : recorded.get(lane.name()));
        }
        return out;
    }

    /**
     * The stream's next offset at {@code token}, with each table's state: its lane id, its own position while that
     * lies above {@code token}, and the capture instance it reads when that is not its configured one.
     */
    private CdcOffset next(String token, boolean snapshotComplete, Map<String, String> laneFrom,
                           Map<String, String> instances) {
        Map<String, LaneStates.Entry> states = new LinkedHashMap<>();
        for (Lane lane : lanes) {
            String own = laneFrom.get(lane.name());
            states.put(lane.name(), new LaneStates.Entry(lane.table().streamId(),
                own != null && CdcPosition.compare(own, token) > 0 ? own : null, instances.get(lane.name())));
        }
        return new CdcOffset(stream.backend(), token, snapshotComplete, LaneStates.json(states));
    }

    /**
     * The lanes that stopped inside {@code position} (their next offset lies below it) read on, with their own
     * resume points, until they are past it; their changes at {@code position} join their batch.
     */
    private void readOn(List<CdcBatch> subs, BigInteger position, int maxEvents) {
        for (int i = 0; i < lanes.size(); i++) {
            Lane lane = lanes.get(i);
            CdcBatch sub = subs.get(i);
            CdcOffset at = sub.nextOffset();
            if (at == null || at.position().value().compareTo(position) >= 0) {
                continue;
            }
            List<CdcEvent> all = new ArrayList<>(sub.changes());
            while (at != null && at.position().value().compareTo(position) < 0) {
                CdcOffset from = at;
                CdcBatch more = inLane(lane, () -> lane.reader().readBatch(from, maxEvents));
                if (more.changes().isEmpty() || more.nextOffset() == null
                    || more.nextOffset().equals(at)) {
                    throw new IllegalStateException("the reader of " + lane.name() + " made no progress inside "
                        + "a transaction");
                }
                for (CdcEvent e : more.changes()) {
                    if (e.positionValue().value().compareTo(position) <= 0) {
                        all.add(e);
                    }
                }
                at = more.nextOffset();
            }
            subs.set(i, new CdcBatch(sub.highWatermark(), at, all, sub.columns(), sub.policyChanged()));
        }
    }

    private SinkReceipt apply(CdcApplyBatch batch) {
        Map<String, List<CdcEvent>> byTable = new LinkedHashMap<>();
        lanes.forEach(l -> byTable.put(l.name(), new ArrayList<>()));
        for (CdcEvent e : batch.events()) {
            List<CdcEvent> lane = byTable.get(e.sourceSchema() + "." + e.sourceTable());
            if (lane == null) {
                throw new DponeException(CdcBlockers.blocker(CdcBlockers.EVENT_STREAM_MISMATCH, "sink",
                    "a change of " + e.sourceSchema() + "." + e.sourceTable() + " is not one of the stream's tables; "
                        + "nothing was applied"));
            }
            lane.add(e);
        }
        // every table's values are checked against its own columns before any table is written
        for (Lane lane : lanes) {
            List<CdcEvent> events = byTable.get(lane.name());
            if (!events.isEmpty()) {
                List<Blocker> misfits = CdcBatchPolicy.values(lane.table(), new CdcBatch(null, null, events,
                    columns.getOrDefault(lane.name(), List.of())));
                if (!misfits.isEmpty()) {
                    throw tagged(lane, misfits);
                }
            }
        }
        List<String> targets = new ArrayList<>();
        List<String> messages = new ArrayList<>();
        Map<String, Object> perTable = new LinkedHashMap<>();
        int received = 0;
        int applied = 0;
        int present = 0;
        boolean passed = true;
        boolean durable = true;
        boolean known = true;
        boolean any = false;
        for (Lane lane : lanes) {
            CdcBatch snap = snapshots.get(lane.name());
            if (snap != null) {
                // the added table's snapshot lands before its changes; its own batch id (per run: a retried
                // snapshot's rows differ, and the log's insert token must not drop them), its rows deduplicated by
                // event id against what an earlier attempt wrote
                String snapshotBatch = io.dpone.cdc.CdcHashes.sha256Hex(io.dpone.cdc.CdcHashes.canonicalJson(List.of(
                    lane.table().streamId(), snap.nextOffset().token(), batch.runId(), "snapshot"))).substring(0, 32);
                SinkReceipt sr = inLane(lane, () -> lane.applier().apply(lane.table(), new CdcApplyBatch(snapshotBatch,
                    batch.runId(), snap.changes(), snap.columns())));
                snapshotReceipts.put(lane.name(), sr);
                if (!sr.passed() || !sr.durable()) {
                    return new SinkReceipt(SinkReceipt.SCHEMA, batch.batchId(), batch.runId(), sr.passed(), false,
                        sr.target(), 0, 0, 0, false, lane.name() + " snapshot: " + sr.message(),
                        Map.of("tables", perTable));
                }
            }
            List<CdcEvent> events = byTable.get(lane.name());
            if (events.isEmpty()) {
                continue;
            }
            CdcApplyBatch sub = new CdcApplyBatch(batch.batchId(), batch.runId(), events,
                columns.getOrDefault(lane.name(), List.of()));
            SinkReceipt r = inLane(lane, () -> {
                try {
                    return lane.applier().apply(lane.table(), sub);
                } catch (DponeException e) {
                    throw e;
                } catch (RuntimeException e) {
                    throw new DponeException(CdcBlockers.blocker(CdcBlockers.SINK_APPLY_FAILED, "sink",
                        "the sink applier of " + lane.name() + " failed: " + Redactor.global().describe(e)));
                }
            });
            receipts.put(lane.name(), r);
            any = true;
            targets.add(r.target());
            received += r.eventsReceived();
            applied += r.appliedRows();
            present += r.alreadyPresentRows();
            known &= r.batchAlreadyApplied();
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("target", r.target());
            t.put("passed", r.passed());
            t.put("durable", r.durable());
            t.put("applied", r.appliedRows());
            t.put("already_in_sink", r.alreadyPresentRows());
            perTable.put(lane.name(), t);
            messages.add(lane.name() + ": " + r.message());
            if (!r.passed() || !r.durable()) {
                // the tables after it are not applied: the offset stays, and a later tick re-applies nothing twice
                passed = r.passed();
                durable = false;
                break;
            }
        }
        return new SinkReceipt(SinkReceipt.SCHEMA, batch.batchId(), batch.runId(), passed, durable,
            String.join(",", targets), received, applied, present, any && known,
            messages.isEmpty() ? "empty batch; nothing to write" : String.join("; ", messages),
            Map.of("tables", perTable));
    }

    private static <T> T inLane(Lane lane, java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (DponeException e) {
            throw tagged(lane, e.blockers());
        }
    }

    /** The blockers with {@code details.table} naming the lane's table (the report's per-table blockers). */
    private static DponeException tagged(Lane lane, List<Blocker> blockers) {
        List<Blocker> out = new ArrayList<>(blockers.size());
        for (Blocker b : blockers) {
            Map<String, Object> details = new LinkedHashMap<>(b.details());
            details.putIfAbsent("table", lane.name());
            out.add(new Blocker(b.code(), b.subject(), b.message(), details));
        }
        return new DponeException(out);
    }
}
