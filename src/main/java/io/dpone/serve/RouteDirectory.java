package io.dpone.serve;

import io.dpone.connect.Redactor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.camel.CamelContext;
import org.apache.camel.api.management.ManagedAttribute;
import org.apache.camel.api.management.ManagedOperation;
import org.apache.camel.api.management.ManagedResource;
import org.apache.camel.support.PluginHelper;
import org.apache.camel.support.ResourceHelper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's routes directory, loaded one {@code *.yaml} file at a time after the shipped routes: a file whose
 * route ids match shipped ones replaces them (Camel's {@code updateRoutes}), a new id is added, and a file that
 * does not parse or build is refused with its name and line while every other route keeps serving (camel-main's
 * own {@code routes-include-pattern} would fail the whole context on one bad file). {@link #scan()} loads new
 * and changed files (by modification time and size); it runs at start and, with {@code routes.reload: true}, on
 * the reload interval. Exposed over JMX as {@code io.dpone:type=serve,name=routes}.
 */
@ManagedResource(description = "dpone routes directory: loaded and refused route files")
public final class RouteDirectory {
    private static final Logger LOG = LoggerFactory.getLogger(RouteDirectory.class);
    private static final Pattern LINE = Pattern.compile("line (\\d+), column (\\d+)");

    /** A refused file: its name, the line and column of the problem (0 when unknown) and a redacted reason. */
    public record Rejected(String file, int line, int column, String reason) {
    }

    private final CamelContext context;
    private final Path dir;
    private final Map<String, String> seen = new LinkedHashMap<>();
    private final Map<String, List<String>> loaded = new TreeMap<>();
    private final Map<String, Rejected> rejected = new TreeMap<>();

    public RouteDirectory(CamelContext context, Path dir) {
        this.context = context;
        this.dir = dir;
    }

    /** Loads every new or changed route file; returns the number of files looked at anew. */
    @ManagedOperation(description = "Rescan the routes directory now; returns the number of new or changed files")
    public synchronized int scan() {
        if (dir == null || !Files.isDirectory(dir)) {
            return 0;
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(".yaml") && Files.isRegularFile(p)).sorted().toList();
        } catch (IOException e) {
            LOG.warn("routes directory cannot be listed: {}", Redactor.global().describe(e));
            return 0;
        }
        int changed = 0;
        for (Path f : files) {
            String name = f.getFileName().toString();
            String stamp = stamp(f);
            if (stamp.equals(seen.get(name))) {
                continue;
            }
            seen.put(name, stamp);
            changed++;
            load(f, name);
        }
        return changed;
    }

    private void load(Path f, String name) {
        List<String> before = context.getRoutes().stream().map(r -> r.getRouteId()).toList();
        try {
            PluginHelper.getRoutesLoader(context).updateRoutes(
                List.of(ResourceHelper.resolveResource(context, "file:" + f.toAbsolutePath())));
            List<String> ids = context.getRoutes().stream()
                .filter(r -> r.getSourceLocation() != null && r.getSourceLocation().contains(name))
                .map(r -> r.getRouteId()).sorted().toList();
            loaded.put(name, ids);
            rejected.remove(name);
            LOG.info("route file {} loaded: {}{}", name, ids,
                ids.stream().anyMatch(before::contains) ? " (replacing routes with the same ids)" : "");
        } catch (Exception e) {
            Rejected r = rejectionOf(name, e);
            rejected.put(name, r);
            loaded.remove(name);
            LOG.error("serve.route_file_invalid: route file {} refused at line {}, column {}: {}", name, r.line(),
                r.column(), r.reason());
        }
    }

    static Rejected rejectionOf(String name, Throwable e) {
        int line = 0;
        int column = 0;
        String reason = null;
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = t.getMessage();
            if (m == null) {
                continue;
            }
            Matcher matcher = LINE.matcher(m);
            while (matcher.find()) {
                line = Integer.parseInt(matcher.group(1));
                column = Integer.parseInt(matcher.group(2));
                reason = firstLine(m);
            }
        }
        String why = reason != null ? reason : firstLine(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        return new Rejected(name, line, column, Redactor.global().redact(why));
    }

    private static String firstLine(String m) {
        int nl = m.indexOf('\n');
        return (nl < 0 ? m : m.substring(0, nl)).trim();
    }

    private static String stamp(Path f) {
        try {
            return Files.getLastModifiedTime(f).toMillis() + ":" + Files.size(f);
        } catch (IOException e) {
            return "unreadable";
        }
    }

    public synchronized List<Rejected> rejected() {
        return new ArrayList<>(rejected.values());
    }

    @ManagedAttribute(description = "Route files loaded, with their route ids")
    public synchronized String getLoadedRouteFiles() {
        return loaded.toString();
    }

    @ManagedAttribute(description = "Route files refused: file:line:column reason")
    public synchronized String[] getRejectedRouteFiles() {
        return rejected.values().stream().map(r -> r.file() + ":" + r.line() + ":" + r.column() + " " + r.reason())
            .toArray(String[]::new);
    }
}
