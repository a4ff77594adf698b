package io.dpone.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The distribution of one kind's cases: by first mutation, by outcome ({@code passed} or the refusal's codes) and by
 * blocker code; written to {@code target/fuzz/<kind>.md} for the test notes (docs/testing.md).
 */
final class FuzzTally {
    private final String kind;
    private final long seed;
    private final Map<String, Integer> byMutation = new TreeMap<>();
    private final Map<String, Integer> byOutcome = new TreeMap<>();
    private final Map<String, Integer> byCode = new TreeMap<>();
    private final Map<String, Long> millisByMutation = new TreeMap<>();
    private int cases;
    private int planted;

    FuzzTally(String kind, long seed) {
        this.kind = kind;
        this.seed = seed;
    }

    void add(FuzzCase c, int exitCode, List<String> codes, long startNanos) {
        millisByMutation.merge(c.primary().name().toLowerCase(java.util.Locale.ROOT),
            (System.nanoTime() - startNanos) / 1_000_000, Long::sum);
        cases++;
        planted += c.secret() == null ? 0 : 1;
        byMutation.merge(c.primary().name().toLowerCase(java.util.Locale.ROOT), 1, Integer::sum);
        byOutcome.merge(exitCode == 0 ? "exit 0 (accepted)" : "exit 1 (refused)", 1, Integer::sum);
        codes.stream().distinct().forEach(code -> byCode.merge(code, 1, Integer::sum));
    }

    int cases() {
        return cases;
    }

    /** Writes the distribution and returns it. */
    String write(long millis) {
        StringBuilder sb = new StringBuilder("### " + kind + ": " + cases + " cases in " + millis + " ms (seed " + seed
            + ", " + planted + " with a planted secret)\n\n");
        sb.append("| first mutation | cases | ms |\n| --- | ---: | ---: |\n");
        byMutation.forEach((k, v) -> sb.append("| `").append(k).append("` | ").append(v).append(" | ")
            .append(millisByMutation.get(k)).append(" |\n"));
        sb.append('\n');
        table(sb, "outcome", byOutcome);
        table(sb, "blocker code (cases)", byCode);
        try {
            Path dir = Path.of("target", "fuzz");
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(kind + ".md"), sb.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sb.toString();
    }

    private static void table(StringBuilder sb, String title, Map<String, Integer> counts) {
        sb.append("| ").append(title).append(" | cases |\n| --- | ---: |\n");
        counts.forEach((k, v) -> sb.append("| `").append(k).append("` | ").append(v).append(" |\n"));
        sb.append('\n');
    }
}
