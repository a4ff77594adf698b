package io.dpone.discover;

import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.manifest.Identifier;
import io.dpone.manifest.TableRef;
import io.dpone.manifest.ValuePolicies;
import io.dpone.manifest.ValuePolicy;
import io.dpone.source.ColumnMapping;
import io.dpone.source.ColumnReads;
import io.dpone.source.JdbcSourceReader;
import io.dpone.source.SourceCatalog;
import io.dpone.source.ReadPlan;
import io.dpone.source.SourceColumn;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The verdict on one table, from one read of its catalogue ({@link JdbcSourceReader#inspect}) and nothing else:
 * which columns move exactly, which through a conversion, which only under a value policy, which are refused; and
 * from that the table's verdict, the policy its manifest declares, and the recommended route and readers.
 */
final class TableClassifier {
    /** Rows from which a table whose primary key can bound key ranges is recommended more than one reader. */
    static final long PARALLEL_FROM_ROWS = 1_000_000L;
    /** Rows per recommended reader above {@link #PARALLEL_FROM_ROWS}. */
    static final long ROWS_PER_READER = 2_000_000L;
    /** The most readers discover recommends (the manifest allows 16). */
    static final int MAX_READERS = 8;
    static final String ROUTE = "typed_binary_streaming";

    /** One table's outcome: its catalog entry (without the manifest path) and the policies its manifest declares. */
    record Outcome(Catalog.TableEntry entry, Map<String, ValuePolicy> policies) {
    }

    private TableClassifier() {
    }

    static Outcome classify(JdbcSourceReader reader, SourceCatalog catalog, SourceCatalog.Table t, Catalog.Target target) {
        Catalog.Cdc cdc = new Catalog.Cdc(t.cdcTracked(), t.captureInstances(), t.changeTracking());
        if (!Identifier.valid(t.schema()) || !Identifier.valid(t.name())) {
            return blocked(t, cdc, target, List.of(), List.of(), List.of(Blocker.of(
                BlockerCode.MANIFEST_INVALID_IDENTIFIER, "source.table", "table name " + (Identifier.valid(t.schema())
                    ? "" : "schema ") + "is not an identifier dpone quotes (letters, digits and '_', starting with a"
                    + " letter or '_', at most 128): expose it through a view with such a name")));
        }
        TableRef ref = new TableRef(t.schema(), t.name());
        JdbcSourceReader.Inspection first;
        try {
            first = reader.inspect(ref, List.of(), ValuePolicies.NONE);
        } catch (DponeException e) {
            return blocked(t, cdc, target, List.of(), List.of(), e.blockers());
        } catch (IllegalArgumentException e) {
            // a column name the dialect refuses to quote: name them (one more read, only for such a table)
            List<String> bad;
            try {
                bad = catalog.columnNames(t.schema(), t.name()).stream().filter(c -> !Identifier.valid(c)).toList();
            } catch (DponeException again) {
                return blocked(t, cdc, target, List.of(), List.of(), again.blockers());
            }
            if (bad.isEmpty()) {
                throw e;
            }
            return blocked(t, cdc, target, List.of(), List.of(), List.of(Blocker.of(
                BlockerCode.MANIFEST_INVALID_IDENTIFIER, "source.columns", "column name(s) " + String.join(", ",
                    bad.stream().map(c -> "'" + c + "'").toList()) + " are not identifiers dpone quotes (letters,"
                    + " digits and '_'): expose the table through a view that renames them, or leave them out with"
                    + " source.columns in a hand-written manifest")));
        }
        // a column refused under refuse that a policy can move (sql_variant as_text) is proposed with that policy
        Map<String, ValuePolicy> policies = new LinkedHashMap<>();
        for (ColumnMapping c : first.columns()) {
            if (c.refusal() != null && "sql_variant".equalsIgnoreCase(c.sourceType())) {
                policies.put(c.name(), ValuePolicy.AS_TEXT);
            }
        }
        JdbcSourceReader.Inspection inspection = first;
        if (!policies.isEmpty()) {
            try {
                inspection = reader.inspect(ref, List.of(), new ValuePolicies(ValuePolicy.REFUSE, policies));
            } catch (DponeException e) {
                return blocked(t, cdc, target, List.of(), List.of(), e.blockers());
            }
        }
        List<String> primaryKey = inspection.columns().stream().filter(ColumnMapping::primaryKey)
            .map(ColumnMapping::name).toList();
        List<String> notes = new ArrayList<>();
        List<List<String>> uniqueKeys;
        try {
            uniqueKeys = catalog.uniqueKeys(t.schema(), t.name(), primaryKey);
        } catch (DponeException e) {
            uniqueKeys = List.of(); // the primary key is known; the other unique keys could not be read
            notes.add("unique keys not read: " + e.blockers().get(0).message());
        }
        List<Catalog.ColumnEntry> columns = inspection.columns().stream()
            .map(c -> column(c, policies.containsKey(c.name()))).toList();
        if (!inspection.blockers().isEmpty()) {
            return new Outcome(entry(t, "blocked", columns, primaryKey, uniqueKeys, cdc, null, target,
                inspection.blockers(), wayOut(inspection.blockers())), Map.of());
        }
        Catalog.Recommendation rec = recommend(t, inspection, primaryKey, uniqueKeys, notes);
        policies.keySet().forEach(c -> notes.add("column " + c + " is a sql_variant: moved under value policy as_text "
            + "(its text, plus " + c + ColumnReads.TYPE_SUFFIX + " naming each value's base type)"));
        List<String> ranged = columns.stream().filter(c -> c.verdict().equals("range_checked"))
            .map(Catalog.ColumnEntry::name).toList();
        if (!ranged.isEmpty()) {
            notes.add("date/time column(s) " + String.join(", ", ranged) + ": a value outside 1900..2299 (a sentinel "
                + "such as 0001-01-01 or 9999-12-31) is refused at run time; declare source.value_policy clamp or "
                + "null to move such values, counted in the run report");
        }
        return new Outcome(entry(t, policies.isEmpty() ? "exact" : "policy", columns, primaryKey, uniqueKeys, cdc, rec,
            target, List.of(), notes), policies);
    }

    private static Outcome blocked(SourceCatalog.Table t, Catalog.Cdc cdc, Catalog.Target target,
                                   List<Catalog.ColumnEntry> columns, List<String> primaryKey, List<Blocker> blockers) {
        return new Outcome(entry(t, "blocked", columns, primaryKey, List.of(), cdc, null, target, blockers,
            wayOut(blockers)), Map.of());
    }

    private static List<String> wayOut(List<Blocker> blockers) {
        boolean columns = blockers.stream().anyMatch(b -> b.code().equals(BlockerCode.SOURCE_TYPE_UNSUPPORTED.code()));
        return columns ? List.of("leave the refused column(s) out with source.columns in a hand-written manifest, or "
            + "convert them in a view, then rerun discover") : List.of();
    }

    private static Catalog.TableEntry entry(SourceCatalog.Table t, String verdict, List<Catalog.ColumnEntry> columns,
                                            List<String> primaryKey, List<List<String>> uniqueKeys, Catalog.Cdc cdc,
                                            Catalog.Recommendation rec, Catalog.Target target, List<Blocker> blockers,
                                            List<String> notes) {
        return new Catalog.TableEntry(t.schema(), t.name(), verdict, columns, primaryKey, uniqueKeys,
            t.estimatedRows(), t.estimatedBytes(), cdc, rec, rec == null ? null : target, List.copyOf(blockers),
            List.copyOf(notes), null);
    }

    static Catalog.ColumnEntry column(ColumnMapping c, boolean underPolicy) {
        List<Catalog.ColumnTarget> targets = c.reads().stream().map(r -> new Catalog.ColumnTarget(r.name(),
            r.clickHouseType(), r.policy().text())).toList();
        String verdict;
        if (c.refusal() != null) {
            verdict = "refused";
        } else if (underPolicy) {
            verdict = "policy";
        } else if (c.reads().stream().anyMatch(r -> ColumnReads.rangeLimited(r.type()))) {
            verdict = "range_checked";
        } else if (c.reads().stream().anyMatch(r -> r.readSql() != null)) {
            verdict = "converted";
        } else {
            verdict = "exact";
        }
        return new Catalog.ColumnEntry(c.name(), c.sourceType(), c.nullable(), c.primaryKey(), verdict, targets,
            c.refusal());
    }

    /** The route, mode, readers and sort key discover proposes, each with its reason. */
    private static Catalog.Recommendation recommend(SourceCatalog.Table t, JdbcSourceReader.Inspection inspection,
                                                    List<String> primaryKey, List<List<String>> uniqueKeys,
                                                    List<String> notes) {
        List<String> reasons = new ArrayList<>();
        List<SourceColumn> selected = inspection.table().columns();
        List<String> orderBy = nonNull(primaryKey, selected) ? primaryKey : List.of();
        if (orderBy.isEmpty()) {
            orderBy = uniqueKeys.stream().filter(k -> nonNull(k, selected)).findFirst().orElse(List.of());
            if (!orderBy.isEmpty()) {
                reasons.add("sorted by unique key (" + String.join(", ", orderBy) + "): no usable primary key");
            } else {
                notes.add("no primary or non-null unique key: the target is unsorted (ORDER BY tuple()), the read "
                    + "is one reader, and no CDC hand-over can key on it");
            }
        }
        int readers = 1;
        Long rows = t.estimatedRows();
        String unsplittable = primaryKey.isEmpty() ? "no primary key" : null;
        for (String k : primaryKey) {
            var column = selected.stream().filter(c -> c.name().equalsIgnoreCase(k)).findFirst();
            String why = column.isEmpty() ? "primary key column " + k + " is not mapped"
                : ReadPlan.unsplittable(column.get()) == null ? null
                : "primary key column " + k + " " + ReadPlan.unsplittable(column.get());
            unsplittable = unsplittable == null ? why : unsplittable;
        }
        if (unsplittable == null) {
            if (rows != null && rows >= PARALLEL_FROM_ROWS) {
                readers = (int) Math.max(2, Math.min(MAX_READERS, (rows + ROWS_PER_READER - 1) / ROWS_PER_READER));
                reasons.add(readers + " readers in key ranges of " + String.join(", ", primaryKey) + " (about " + rows
                    + " rows)");
            } else {
                reasons.add("one reader: " + (rows == null ? "no row estimate" : "about " + rows + " rows, below "
                    + PARALLEL_FROM_ROWS));
            }
        } else {
            reasons.add("one reader: key-range reads need a primary key of integer, decimal, text, uniqueidentifier, "
                + "date or date-time columns (" + unsplittable + ")");
        }
        String mode = "full_refresh";
        boolean keyed = !primaryKey.isEmpty() || !orderBy.isEmpty();
        if (t.cdcTracked() && keyed) {
            mode = "snapshot_then_cdc";
            reasons.add("tracked by CDC (" + (t.captureInstances().isEmpty() ? "capture instance not readable"
                : String.join(", ", t.captureInstances())) + "): a snapshot handed over to the mssql_cdc stream "
                + "(add a cdc: block to the manifest to hand over)");
        } else if (Boolean.TRUE.equals(t.changeTracking()) && !primaryKey.isEmpty()) {
            mode = "snapshot_then_change_tracking";
            reasons.add("Change Tracking is on: a snapshot handed over to the mssql_change_tracking stream (add a "
                + "cdc: block to the manifest to hand over)");
        } else {
            reasons.add("full refresh: " + (t.cdcTracked() ? "tracked by CDC but no key to apply changes by"
                : "no CDC or Change Tracking on the table"));
        }
        return new Catalog.Recommendation(ROUTE, mode, readers, orderBy, reasons);
    }

    private static boolean nonNull(List<String> key, List<SourceColumn> selected) {
        if (key.isEmpty()) {
            return false;
        }
        for (String k : key) {
            boolean ok = selected.stream().anyMatch(c -> c.name().toLowerCase(Locale.ROOT)
                .equals(k.toLowerCase(Locale.ROOT)) && !c.nullable());
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
