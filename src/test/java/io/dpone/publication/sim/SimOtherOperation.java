package io.dpone.publication.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.dpone.publication.protocol.PublicationMode;
import io.dpone.publication.protocol.PublicationOutcome;

/** A different operation tried while the record is unresolved: refused, and it touches nothing. */
final class SimOtherOperation {
    private SimOtherOperation() {
    }

    /** Returns false (nothing tried) when the record is already resolved. */
    static boolean assertFenced(SimWorld w, PublicationMode mode, String holder) {
        var fence = w.authority.values().stream().findFirst();
        if (fence.isEmpty() || fence.get().record().phase().resolved()) {
            return false;
        }
        String before = snapshot(w);
        int effects = w.faults.count;
        PublicationOutcome other = SimHarness.run(w, "other-operation", mode, null);
        assertFalse(other.committed());
        assertEquals("publication.fenced", other.blockers().get(0).code());
        assertEquals(holder, other.blockers().get(0).details().get("fencing_operation_id"));
        assertEquals(before, snapshot(w), "a fenced operation changed the cluster");
        assertEquals(effects, w.faults.count, "a fenced operation made a side effect");
        return true;
    }

    private static String snapshot(SimWorld w) {
        StringBuilder sb = new StringBuilder();
        w.tables.forEach((id, tables) -> tables.forEach((k, t) -> sb.append(id).append(k).append(t.uuid)
            .append(t.rows).append('\n')));
        return sb.toString();
    }
}
