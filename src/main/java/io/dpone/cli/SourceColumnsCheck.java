package io.dpone.cli;

import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import io.dpone.manifest.BatchManifest;
import io.dpone.manifest.ValuePolicy;
import io.dpone.source.ColumnMapping;
import io.dpone.source.JdbcSourceReader;
import io.dpone.source.SourceColumn;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code dpone check --connect}'s source half: opens the manifest's source, lists every column of the table with the
 * ClickHouse column(s) it lands as and the value policy in force, and collects every refusal at once (the columns
 * that cannot move, a policy that cannot apply), each with its way out. Opens one read-only connection and reads
 * the catalogue only, never a row.
 */
final class SourceColumnsCheck {
    /** One landing column: its name, ClickHouse type and the policy in force on it. */
    record Target(String name, String clickhouseType, String policy) {
    }

    /** One source column as check lists it. */
    record Column(String name, String sourceType, boolean primaryKey, boolean selected, List<Target> targets,
                  String refused) {
    }

    /** What the source half found: the columns, the blockers, and notes on policies over key columns. */
    record Result(List<Column> columns, List<Blocker> blockers, List<String> notes) {
    }

    private SourceColumnsCheck() {
    }

    static Result run(BatchManifest m) {
        List<Blocker> blockers = new ArrayList<>();
        List<Column> columns = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        var src = m.source();
        try (JdbcSourceReader reader = JdbcSourceReader.open(ConnectionContext.fromEnvironment()
            .resolve(src.connectionRef(), ConnectionType.MSSQL, "source.connection_ref"))) {
            JdbcSourceReader.Inspection inspection = reader.inspect(src.table(), src.columns(), src.valuePolicies());
            for (ColumnMapping c : inspection.columns()) {
                columns.add(new Column(c.name(), c.sourceType(), c.primaryKey(), c.selected(), c.reads().stream()
                    .map(r -> new Target(r.name(), r.clickHouseType(), r.policy().text())).toList(),
                    c.refusal() == null ? null : c.refusal().code() + ": " + c.refusal().message()));
                keyNotes(m, c, notes);
            }
            blockers.addAll(inspection.blockers()); // the column refusals and the table-level checks, all at once
        } catch (DponeException e) {
            blockers.addAll(e.blockers());
        }
        return new Result(columns, blockers, notes);
    }

    /** A clamp or null on a column the target orders by or a CDC stream keys on is said, not applied silently. */
    private static void keyNotes(BatchManifest m, ColumnMapping c, List<String> notes) {
        List<String> keys = new ArrayList<>(m.sink().options().orderBy());
        if (m.cdc() != null) {
            keys.addAll(m.cdc().uniqueKeys());
        }
        for (SourceColumn r : c.reads()) {
            boolean key = keys.stream().anyMatch(k -> k.equalsIgnoreCase(r.name()));
            if (key && (r.policy() == ValuePolicy.CLAMP || r.policy() == ValuePolicy.NULL)) {
                notes.add("column " + r.name() + " is a sort or CDC key under value policy " + r.policy().text()
                    + ": values it changes sort at the range ends and can tie with others");
            }
        }
    }

    /** The text form: one line per column. */
    static String text(Result r) {
        StringBuilder sb = new StringBuilder();
        int width = r.columns().stream().mapToInt(c -> c.name().length()).max().orElse(4);
        for (Column c : r.columns()) {
            sb.append("  ").append(pad(c.name(), width)).append("  ").append(pad(c.sourceType(), 16)).append("  ");
            if (!c.selected()) {
                sb.append("not selected (source.columns)");
            } else if (c.refused() != null) {
                sb.append("REFUSED ").append(c.refused());
            } else {
                sb.append("-> ").append(String.join(", ", c.targets().stream().map(t -> t.name() + " "
                    + t.clickhouseType() + (t.policy().equals("refuse") ? "" : " [" + t.policy() + "]")).toList()));
            }
            if (c.primaryKey()) {
                sb.append("  (primary key)");
            }
            sb.append('\n');
        }
        r.notes().forEach(n -> sb.append("  note: ").append(n).append('\n'));
        return sb.toString();
    }

    private static String pad(String s, int width) {
        String v = s == null ? "" : s;
        return v.length() >= width ? v : v + " ".repeat(width - v.length());
    }
}
