package io.dpone.discover;

import io.dpone.error.Blocker;
import java.util.Comparator;
import java.util.List;

/** {@code summary.md}: what a person reads in a minute: counts by verdict, the largest tables, the decisions. */
final class Summary {
    static final int LARGEST = 10;

    private Summary() {
    }

    static String markdown(Catalog c) {
        StringBuilder m = new StringBuilder();
        Catalog.Counts n = c.counts();
        m.append("# dpone discover: ").append(c.sourceAlias()).append(" -> ").append(c.sinkAlias()).append("\n\n");
        m.append(n.tables()).append(" table(s) selected").append(n.excluded() > 0 ? " (" + n.excluded()
            + " left out by --include/--exclude)" : "").append(": **").append(n.exact()).append(" move exactly**, **")
            .append(n.policy()).append(" move under a value policy**, **").append(n.blocked())
            .append(" cannot move as is**. ").append(n.manifests()).append(" manifest(s) in `manifests/`, run by `")
            .append(Discovery.SERVE_FILE).append("` (`dpone serve --config ").append(Discovery.SERVE_FILE)
            .append("`) or one by one (`dpone run manifests/<file> --run-id ID`).\n\n");
        m.append("Estimates from the catalogue, no row read: rows from ")
            .append(or(c.provenance().estimatedRows())).append(", bytes from ")
            .append(or(c.provenance().estimatedBytes())).append(", CDC from ").append(or(c.provenance().cdc()))
            .append(", Change Tracking from ").append(or(c.provenance().changeTracking())).append(".\n\n");

        m.append("## Largest tables\n\n| table | est. rows | est. bytes | verdict | mode | readers |\n")
            .append("| --- | ---: | ---: | --- | --- | ---: |\n");
        c.tables().stream().sorted(Comparator.comparing((Catalog.TableEntry t) -> size(t.estimatedBytes()))
                .thenComparing(t -> size(t.estimatedRows())).reversed()
                .thenComparing(t -> t.schema() + "." + t.name())).limit(LARGEST)
            .forEach(t -> m.append("| `").append(t.schema()).append('.').append(t.name()).append("` | ")
                .append(num(t.estimatedRows())).append(" | ").append(num(t.estimatedBytes())).append(" | ")
                .append(t.verdict()).append(" | ").append(t.recommended() == null ? "-" : t.recommended().mode())
                .append(" | ").append(t.recommended() == null ? "-" : t.recommended().parallelReaders())
                .append(" |\n"));
        m.append('\n');

        m.append("## Decisions needed\n\n");
        int before = m.length();
        List<Catalog.TableEntry> blocked = c.tables().stream().filter(t -> t.verdict().equals("blocked")).toList();
        if (!blocked.isEmpty()) {
            m.append("### Cannot move as is (").append(blocked.size()).append(")\n\n");
            for (Catalog.TableEntry t : blocked) {
                m.append("- `").append(t.schema()).append('.').append(t.name()).append("`: ");
                m.append(String.join("; ", t.blockers().stream().map(Summary::blocker).toList()));
                t.notes().forEach(x -> m.append(". Way out: ").append(x));
                m.append('.');
                m.append('\n');
            }
            m.append('\n');
        }
        section(m, "Moved under a value policy (check it is what you want)", c.tables().stream()
            .filter(t -> t.verdict().equals("policy")).toList(), "as_text");
        section(m, "Date/time columns that refuse out-of-range values (sentinels such as 9999-12-31)",
            c.tables().stream().filter(t -> !t.verdict().equals("blocked")).toList(), "1900..2299");
        section(m, "No key (unsorted target, one reader, no CDC hand-over)", c.tables().stream()
            .filter(t -> !t.verdict().equals("blocked")).toList(), "no primary or non-null unique key");
        List<Catalog.TableEntry> streams = c.tables().stream().filter(t -> t.recommended() != null
            && !t.recommended().mode().equals("full_refresh")).toList();
        if (!streams.isEmpty()) {
            m.append("### CDC / Change Tracking: hand over to a stream?\n\n");
            streams.forEach(t -> m.append("- `").append(t.schema()).append('.').append(t.name()).append("`: ")
                .append(t.recommended().mode()).append(t.cdc().captureInstances().isEmpty() ? ""
                    : " (capture instance " + String.join(", ", t.cdc().captureInstances()) + ")")
                .append("; the manifest is a full refresh until you add its `cdc:` block (docs/cdc.md)\n"));
            m.append('\n');
        }
        List<Catalog.FileEntry> kept = c.files().stream().filter(f -> f.state().startsWith("kept")).toList();
        if (!kept.isEmpty()) {
            m.append("### Hand-edited files kept\n\n");
            kept.forEach(f -> m.append("- `").append(f.path()).append("`: ").append(f.state().equals("kept_edited")
                ? "differs from what discover last wrote, kept; the new proposal is `" + f.proposal() + "`"
                : "its table is no longer generated; kept because it was edited").append('\n'));
            m.append('\n');
        }
        if (m.length() == before) {
            m.append("None.\n\n");
        }
        m.append("Details per table and column: `").append(Discovery.CATALOG_FILE).append("` (`")
            .append(Catalog.SCHEMA).append("`; docs/discover.md).\n");
        return m.toString();
    }

    private static void section(StringBuilder m, String title, List<Catalog.TableEntry> tables, String noteMarker) {
        List<String> lines = tables.stream().flatMap(t -> t.notes().stream().filter(x -> x.contains(noteMarker))
            .map(x -> "- `" + t.schema() + "." + t.name() + "`: " + x + "\n")).toList();
        if (!lines.isEmpty()) {
            m.append("### ").append(title).append(" (").append(lines.size()).append(")\n\n");
            lines.forEach(m::append);
            m.append('\n');
        }
    }

    private static String blocker(Blocker b) {
        return "`" + b.code() + "` at " + b.subject() + ": " + b.message();
    }

    private static long size(Long v) {
        return v == null ? -1 : v;
    }

    private static String num(Long v) {
        return v == null ? "?" : String.format("%,d", v);
    }

    private static String or(String s) {
        return s == null ? "(not available)" : s;
    }
}
