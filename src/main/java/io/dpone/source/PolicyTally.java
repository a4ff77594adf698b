package io.dpone.source;

import io.dpone.manifest.ValuePolicy;
import io.dpone.source.types.ValueOutOfRangeException;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Applies the declared value policies to values a column's type refused and counts what they changed, per column.
 * Thread-safe: parallel key-range readers share one tally. A value its policy cannot take (refuse; clamp of a value
 * with no nearest representable value) is rethrown for the reader to block on.
 */
public final class PolicyTally {
    private final AtomicLongArray changed;

    public PolicyTally(int columns) {
        changed = new AtomicLongArray(columns);
    }

    /**
     * The value column {@code index} (of {@code column}) holds under its policy instead of the refused one.
     *
     * @throws ValueOutOfRangeException {@code refused} itself, when the policy does not change the value
     */
    public Object apply(int index, SourceColumn column, ValueOutOfRangeException refused) {
        ValuePolicy policy = column.policy();
        if (policy == ValuePolicy.CLAMP && refused.nearest() != null) {
            changed.incrementAndGet(index);
            return refused.nearest();
        }
        if (policy == ValuePolicy.NULL && column.nullable()) {
            changed.incrementAndGet(index);
            return null;
        }
        throw refused;
    }

    /**
     * Per column of {@code columns} (this tally's columns, in order) whose policy can change a value, its name and
     * how many values the policy changed so far; the columns that refuse are left out.
     */
    public java.util.Map<String, Long> changedByName(java.util.List<SourceColumn> columns) {
        java.util.Map<String, Long> out = new java.util.LinkedHashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).policy() != ValuePolicy.REFUSE) {
                out.put(columns.get(i).name(), changed(i));
            }
        }
        return out;
    }

    /** The number of values column {@code index}'s policy changed so far. */
    public long changed(int index) {
        return changed.get(index);
    }
}
