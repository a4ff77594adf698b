package io.dpone.publication.sim;

import io.dpone.publication.MemberId;
import io.dpone.publication.artifact.GenerationMarker;
import io.dpone.publication.protocol.Receipt;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The properties every schedule must keep, checked at the moment of each dangerous side effect and after every
 * process run. Violations are collected in the world, so a failing seed reports all of them.
 */
final class SimInvariants {
    static final String DB = "analytics";
    static final String TABLE = "target_table";
    static final Map<SimWorld, Map<MemberId, UUID>> INITIAL = new java.util.WeakHashMap<>();
    static final Map<SimWorld, List<Long>> OLD = new java.util.WeakHashMap<>();

    private SimInvariants() {
    }

    /** Remembers the target each member held before the operation (absent targets are simply not recorded). */
    static void recordInitial(SimWorld w, List<Long> old) {
        Map<MemberId, UUID> m = new HashMap<>();
        w.tables.forEach((id, tables) -> {
            SimTable t = tables.get(SimWorld.key(DB, TABLE));
            if (t != null) {
                m.put(id, t.uuid);
            }
        });
        INITIAL.put(w, m);
        OLD.put(w, List.copyOf(old));
    }

    /** A predecessor may be dropped only after a durable receipt; a published target never. */
    static void onDrop(SimWorld w, MemberId member, SimTable t) {
        UUID initial = INITIAL.get(w).get(member);
        if (t.uuid.equals(initial) && w.receipts.isEmpty()) {
            w.violations.add("the predecessor on " + member + " was dropped before the receipt was durable");
        }
        for (var fence : w.authority.values()) {
            Receipt r = w.receipts.get(fence.record().operationId());
            for (Receipt.Member rm : r == null ? List.<Receipt.Member>of() : r.members()) {
                if (rm.targetUuid().equals(t.uuid.toString())) {
                    w.violations.add("the published target on " + member + " was dropped");
                }
            }
        }
    }

    /** A receipt is written only when every member's target is exactly the generation. */
    static void onReceipt(SimWorld w, Receipt r) {
        List<Long> expected = sorted(w.artifactContent.get(r.artifact().sha256()));
        for (MemberId id : w.memberIds) {
            SimTable t = w.tables.get(id).get(SimWorld.key(DB, TABLE));
            GenerationMarker marker = t == null ? null : GenerationMarker.parse(t.comment);
            if (t == null || !sorted(t.rows).equals(expected) || marker == null
                || !marker.generationId().equals(r.generationId())) {
                w.violations.add("receipt written while " + id + " does not hold the generation");
            }
        }
    }

    /** Every member's target holds the old rows or exactly one sealed artifact's rows, never anything else. */
    static void checkTargets(SimWorld w) {
        List<List<Long>> allowed = new ArrayList<>();
        allowed.add(sorted(OLD.get(w)));
        w.artifactContent.values().forEach(c -> allowed.add(sorted(c)));
        for (MemberId id : w.memberIds) {
            SimTable t = w.tables.get(id).get(SimWorld.key(DB, TABLE));
            if (t != null && !allowed.contains(sorted(t.rows))) {
                w.violations.add("the target on " + id + " holds a partial or duplicated generation");
            }
        }
    }

    /** After the operation finished: every target is the receipt's generation, nothing owned is left over. */
    static void checkFinal(SimWorld w, String operationId) {
        Receipt r = w.receipts.get(operationId);
        if (r == null) {
            w.violations.add("no receipt for the finished operation");
            return;
        }
        onReceipt(w, r);
        if (!w.sourceAdvanced.contains(operationId)) {
            w.violations.add("source state did not advance");
        }
        for (MemberId id : w.memberIds) {
            w.tables.get(id).forEach((k, t) -> {
                if (k.contains("__dpone_") && !lateCreate(w, t, operationId)) {
                    w.violations.add("left over on " + id + ": an owned table");
                }
            });
            UUID initial = INITIAL.get(w).get(id);
            if (initial != null && !w.dropped.contains(initial)) {
                w.violations.add("the predecessor on " + id + " was not dropped");
            }
        }
    }

    /**
     * The one leftover a late statement may cause: an empty table with this operation's marker, created by a
     * zombie whose member CREATE was in flight and landed after cleanup. Never published.
     */
    static boolean lateCreate(SimWorld w, SimTable t, String operationId) {
        SimZombie z = w.faults.zombie;
        GenerationMarker marker = GenerationMarker.parse(t.comment);
        return z != null && z.pausedAt != null && z.pausedAt.startsWith("create on") && t.rows.isEmpty() && marker != null
            && marker.operationId().equals(operationId);
    }

    static List<Long> sorted(List<Long> rows) {
        List<Long> s = new ArrayList<>(rows);
        s.sort(null);
        return s;
    }
}
