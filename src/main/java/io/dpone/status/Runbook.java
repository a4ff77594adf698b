package io.dpone.status;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The "what to do" line of each blocker code, read from docs/blockers.md (packaged as {@value #RESOURCE}, the same file
 * a test keeps in step with {@code BlockerCode}), so the status page shows a blocker with the runbook line a person
 * would look up.
 */
public final class Runbook {
    static final String RESOURCE = "/io/dpone/status/blockers.md";
    static final String FALLBACK = "see docs/blockers.md";
    private static final Pattern ROW = Pattern.compile("(?m)^\\| `([a-z_]+\\.[a-z_.]+)` \\|.*\\| ([^|]+) \\|\\s*$");

    private final Map<String, String> lines;

    private Runbook(Map<String, String> lines) {
        this.lines = Map.copyOf(lines);
    }

    /** The packaged table; an empty runbook (every code answered {@value #FALLBACK}) when it is missing. */
    public static Runbook load() {
        try (InputStream in = Runbook.class.getResourceAsStream(RESOURCE)) {
            return in == null ? new Runbook(Map.of()) : parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            return new Runbook(Map.of());
        }
    }

    static Runbook parse(String markdown) {
        Map<String, String> lines = new HashMap<>();
        Matcher m = ROW.matcher(markdown);
        while (m.find()) {
            lines.putIfAbsent(m.group(1), m.group(2).trim());
        }
        return new Runbook(lines);
    }

    /** What to do about {@code code}. */
    public String line(String code) {
        return lines.getOrDefault(code, FALLBACK);
    }

    int size() {
        return lines.size();
    }
}
