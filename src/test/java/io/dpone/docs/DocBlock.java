package io.dpone.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One fenced shell block of a Markdown file ({@code ```bash}, {@code sh}, {@code shell} or {@code console}) and the
 * {@code <!-- doc-test: ... -->} marker on the line right before its fence, if any (docs/testing.md, "The docs run as
 * written"). Attributes of a marker: {@code skip reason="..."} (not run here; the reason is required),
 * {@code expect-exit=N} (the documented outcome is a failure with exit N), {@code expect-output="..."} (the text the
 * doc says the block prints, in its stdout or stderr; single quotes when the text holds double ones), {@code background ready="..."} (a server the doc starts in the
 * foreground: started in the background, ready when a line of its output contains the text) and {@code port=N}
 * (the documented port N is replaced by a free one in this and every later block of the file, so a busy port on the
 * machine does not fail the doc). A server started in the background serves the following blocks that carry its
 * {@code port=}; the first block that does not stops it, as the doc's Ctrl-C would.
 */
record DocBlock(Path file, int line, String lang, String body, Map<String, String> marker, String markerProblem) {
    static final Set<String> SHELL = Set.of("bash", "sh", "shell", "console");
    static final Set<String> ATTRIBUTES = Set.of("skip", "reason", "expect-exit", "expect-output", "background",
        "ready", "port");
    private static final Pattern FENCE = Pattern.compile("^(\\s*)```\\s*([A-Za-z0-9_-]*)\\s*$");
    private static final Pattern MARKER = Pattern.compile("^\\s*<!--\\s*doc-test:(.*)-->\\s*$");
    private static final Pattern ATTRIBUTE = Pattern.compile("\\s*([a-z-]+)(?:=(?:\"([^\"]*)\"|'([^']*)'|(\\S+)))?");

    boolean skipped() {
        return marker.containsKey("skip");
    }

    boolean background() {
        return marker.containsKey("background");
    }

    int expectedExit() {
        return Integer.parseInt(marker.getOrDefault("expect-exit", "0"));
    }

    String where() {
        return file + ":" + line;
    }

    /** The shell blocks of {@code file} in document order (lines of an indented fence lose its indentation). */
    static List<DocBlock> parse(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        List<DocBlock> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher open = FENCE.matcher(lines.get(i));
            if (!open.matches()) {
                continue;
            }
            String indent = open.group(1);
            String lang = open.group(2);
            int start = i;
            StringBuilder body = new StringBuilder();
            for (i++; i < lines.size() && !FENCE.matcher(lines.get(i)).matches(); i++) {
                String l = lines.get(i);
                body.append(l.startsWith(indent) ? l.substring(indent.length()) : l.stripLeading()).append('\n');
            }
            if (!SHELL.contains(lang)) {
                continue;
            }
            Map<String, String> marker = new LinkedHashMap<>();
            String problem = null;
            Matcher m = start > 0 ? MARKER.matcher(lines.get(start - 1)) : null;
            if (m != null && m.matches()) {
                problem = attributes(m.group(1), marker);
            }
            blocks.add(new DocBlock(file, start + 1, lang, body.toString(), marker, problem));
        }
        return blocks;
    }

    /** Reads a marker's attributes into {@code into}; returns what is wrong with it, or null. */
    static String attributes(String text, Map<String, String> into) {
        Matcher a = ATTRIBUTE.matcher(text);
        int at = 0;
        while (at < text.length() && a.find(at) && a.start() == at) {
            if (a.end() == at) {
                break;
            }
            String key = a.group(1);
            if (!ATTRIBUTES.contains(key)) {
                return "unknown doc-test attribute '" + key + "'";
            }
            into.put(key, a.group(2) != null ? a.group(2) : a.group(3) != null ? a.group(3)
                : a.group(4) != null ? a.group(4) : "");
            at = a.end();
        }
        if (!text.substring(at).isBlank()) {
            return "unreadable doc-test marker near '" + text.substring(at).strip() + "'";
        }
        if (into.containsKey("skip") && into.getOrDefault("reason", "").isBlank()) {
            return "a skipped block needs reason=\"...\"";
        }
        if (!into.containsKey("skip") && into.containsKey("reason")) {
            return "reason= without skip";
        }
        if (into.containsKey("expect-exit") && !into.get("expect-exit").matches("[0-9]{1,3}")) {
            return "expect-exit must be a number";
        }
        if (into.containsKey("background") != into.containsKey("ready")) {
            return "background needs ready=\"...\" (and ready needs background)";
        }
        if (into.containsKey("port") && !into.get("port").matches("[0-9]{2,5}")) {
            return "port must be a number";
        }
        if (into.isEmpty()) {
            return "an empty doc-test marker";
        }
        return null;
    }
}
