package io.dpone.cdc.bundle;

import io.dpone.cdc.bundle.CdcPromotionBundle.Check;
import io.dpone.cdc.bundle.CdcPromotionBundle.ColumnVerdict;
import io.dpone.cdc.bundle.CdcPromotionBundle.Status;
import io.dpone.error.Blocker;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the checks of one bundle land: the stream's own section, and one section per table of a multi-table stream
 * (a single-table stream's table checks land in the stream's section). A check family records into the section
 * {@link #at} points to; {@link #in} moves it to a table and back.
 */
final class Findings {
    /** The stream's checks, blockers and columns (a single-table stream's every check lands here). */
    final Found stream = new Found();
    /** A multi-table stream's tables, in the stream's order; one lane for a single-table stream. */
    final List<Lane> lanes = new ArrayList<>();
    /** Where the checks in progress land: {@link #stream}, or the table's section of a multi-table stream. */
    private Found at = stream;

    /** What the checks found for the stream or for one of its tables. */
    static final class Found {
        final List<Check> checks = new ArrayList<>();
        final List<Blocker> blockers = new ArrayList<>();
        final List<ColumnVerdict> verdicts = new ArrayList<>();
    }

    /**
     * One table the stream reads: a single-table stream's one, or one {@code --table} of a multi-table stream.
     *
     * @param keyOption the option that names the keys, as a blocker's subject ({@code --unique-key},
     *                  {@code --table[i].unique_keys})
     * @param found     where this table's checks land ({@link #stream} for a single-table stream)
     */
    record Lane(String schema, String table, String targetDataset, List<String> uniqueKeys, String captureInstance,
                String keyOption, Found found) {
        String name() {
            return schema + "." + table;
        }

        /** The option that names the table's CDC log, as a blocker's subject. */
        String logOption() {
            return keyOption.equals("--unique-key") ? "--target-dataset"
                : keyOption.replace(".unique_keys", ".target_dataset");
        }
    }

    /** Runs {@code checks} into {@code lane}'s section, then comes back to the stream's. */
    void in(Lane lane, Runnable checks) {
        at = lane.found();
        try {
            checks.run();
        } finally {
            at = stream;
        }
    }

    /** Runs {@code check} once per table, each into its table's section. */
    void eachLane(java.util.function.Consumer<Lane> check) {
        for (Lane l : lanes) {
            in(l, () -> check.accept(l));
        }
    }

    /** The section in progress, for the column verdicts. */
    Found at() {
        return at;
    }

    void pass(String id, String detail) {
        at.checks.add(new Check(id, Status.passed, detail));
    }

    void skip(String id, String why) {
        at.checks.add(new Check(id, Status.skipped, why));
    }

    /** A failed check and its blockers; in a multi-table stream's table, each blocker names the table. */
    void fail(String id, String detail, List<Blocker> found) {
        at.checks.add(new Check(id, Status.failed, detail));
        if (at == stream) {
            at.blockers.addAll(found);
            return;
        }
        Found here = at;
        String table = lanes.stream().filter(l -> l.found() == here).findFirst().orElseThrow().name();
        for (Blocker b : found) {
            Map<String, Object> details = new LinkedHashMap<>(b.details());
            details.putIfAbsent("table", table);
            at.blockers.add(new Blocker(b.code(), b.subject(), b.message(), details));
        }
    }
}
