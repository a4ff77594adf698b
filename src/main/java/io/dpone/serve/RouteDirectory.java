package io.dpone.serve;

import io.dpone.connect.Redactor;
import io.dpone.error.BlockerCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * The operator's routes directory, loaded one {@code *.yaml} file at a time after the shipped routes. Each file is
 * first checked by {@link RouteFilePolicy} (encoding, size, depth, shape, the component allowlist, reserved ids):
 * a new id is added, a shipped id is replaced (Camel's {@code updateRoutes}) only by a file named
 * {@code *-override.yaml}, and a file that is refused, or does not parse or build, is reported with its name, line
 * and code while every other route keeps serving (camel-main's own {@code routes-include-pattern} would fail the
 * whole context on one bad file). Anything thrown while loading is caught, {@code Error}s included: a file whose
 * loading threw an {@code Error} (a stack overflow in a parser, a linkage error) makes readiness DOWN
 * ({@code serve.route_loader_failed}) until it is fixed or removed, and the reload keeps running. {@link #scan()}
 * loads new and changed files (by modification time and size); it runs at start and, with
 * {@code routes.reload: true}, on the reload interval. Exposed over JMX as {@code io.dpone:type=serve,name=routes}.
 * Health and JMX read published snapshots, never the scan's lock.
 */
@ManagedResource(description = "dpone routes directory: loaded and refused route files")
public final class RouteDirectory {
    private static final Logger LOG = LoggerFactory.getLogger(RouteDirectory.class);
    private static final Pattern LINE = Pattern.compile("line (\\d+), column (\\d+)");
    private static final Pattern URI = Pattern.compile("\\b[A-Za-z][A-Za-z0-9+.-]*:(//)?[^\\s,;)\\]'\"]+");

    /**
     * A refused file: its name, the line and column of the problem (0 when unknown), the blocker code, the route
     * ids it defines (when known) and a redacted reason with no endpoint URI in it.
     */
    public record Rejected(String file, int line, int column, String code, List<String> ids, String reason) {
        /** {@code file:line:column code reason}, as JMX and the readiness details show it. */
        String describe() {
            return summary() + " " + reason;
        }

        /** {@code file:line:column code [ids]}: what readiness shows, without Camel's words about the file. */
        String summary() {
            return file + ":" + line + ":" + column + " " + code + (ids.isEmpty() ? "" : " " + ids);
        }
    }

    private final CamelContext context;
    private final Path dir;
    private final RouteFilePolicy policy;
    private final Set<String> shipped;
    private final Map<String, String> seen = new LinkedHashMap<>();
    private final Map<String, List<String>> loaded = new TreeMap<>();
    private final Map<String, Rejected> rejected = new TreeMap<>();
    private volatile String loadedSnapshot = "{}";
    private volatile List<Rejected> rejectedSnapshot = List.of();
    private volatile boolean loaderFailed;

    /** A directory checked with the default policy (no extra components, no file directories). */
    public RouteDirectory(CamelContext context, Path dir) {
        this(context, dir, new RouteFilePolicy(Set.of(), List.of()));
    }

    RouteDirectory(CamelContext context, Path dir, RouteFilePolicy policy) {
        this.context = context;
        this.dir = dir;
        this.policy = policy;
        this.shipped = Set.copyOf(context.getRoutes().stream().map(r -> r.getRouteId()).toList());
    }

    /** Loads every new or changed route file; returns the number of files looked at anew. Never throws. */
    @ManagedOperation(description = "Rescan the routes directory now; returns the number of new or changed files")
    public synchronized int scan() {
        if (dir == null || !Files.isDirectory(dir)) {
            return 0;
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(".yaml") && Files.isRegularFile(p)).sorted().toList();
        } catch (IOException | RuntimeException e) {
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
            try {
                load(f, name);
            } catch (Throwable t) { // an Error in our own bookkeeping: the scan and the reload go on
                reject(name, new Rejected(name, 0, 0, BlockerCode.SERVE_ROUTE_LOADER_FAILED.code(), List.of(),
                    t.getClass().getSimpleName()), true);
            }
        }
        // a file that was refused for an Error and is gone no longer holds readiness down
        rejected.keySet().removeIf(n -> files.stream().noneMatch(f -> f.getFileName().toString().equals(n)));
        publish();
        return changed;
    }

    private void load(Path f, String name) {
        List<String> before = context.getRoutes().stream().map(r -> r.getRouteId()).toList();
        Set<String> ids;
        try {
            Set<String> others = new java.util.HashSet<>(shipped);
            loaded.forEach((file, routeIds) -> {
                if (!file.equals(name)) {
                    others.addAll(routeIds); // another file's ids are taken like shipped ones
                }
            });
            ids = policy.check(f, others);
        } catch (RouteFilePolicy.Refusal r) {
            reject(name, new Rejected(name, r.line, r.column, r.code.code(), List.of(), r.getMessage()), false);
            return;
        } catch (IOException e) {
            reject(name, new Rejected(name, 0, 0, BlockerCode.SERVE_ROUTE_FILE_INVALID.code(), List.of(),
                "route file cannot be read"), false);
            return;
        } catch (Throwable t) {
            reject(name, new Rejected(name, 0, 0, BlockerCode.SERVE_ROUTE_LOADER_FAILED.code(), List.of(),
                t.getClass().getSimpleName()), true);
            return;
        }
        try {
            PluginHelper.getRoutesLoader(context).updateRoutes(
                List.of(ResourceHelper.resolveResource(context, "file:" + f.toAbsolutePath())));
            List<String> now = context.getRoutes().stream()
                .filter(r -> r.getSourceLocation() != null && r.getSourceLocation().contains(name))
                .map(r -> r.getRouteId()).sorted().toList();
            loaded.put(name, now);
            rejected.remove(name);
            LOG.info("route file {} loaded: {}{}", name, now,
                now.stream().anyMatch(before::contains) ? " (replacing routes with the same ids)" : "");
        } catch (Exception e) {
            reject(name, rejectionOf(name, List.copyOf(ids), e), false);
        } catch (Throwable t) {
            reject(name, new Rejected(name, 0, 0, BlockerCode.SERVE_ROUTE_LOADER_FAILED.code(), List.copyOf(ids),
                t.getClass().getSimpleName()), true);
        }
    }

    private void reject(String name, Rejected r, boolean error) {
        rejected.put(name, r);
        loaded.remove(name);
        if (error) {
            LOG.error("{}: route file {} could not be loaded ({}); serve is not ready until the file is fixed or "
                + "removed", r.code(), name, r.reason());
        } else {
            LOG.error("{}: route file {} refused at line {}, column {}: {}", r.code(), name, r.line(), r.column(),
                r.reason());
        }
    }

    private void publish() {
        loadedSnapshot = loaded.toString();
        rejectedSnapshot = List.copyOf(rejected.values());
        loaderFailed = rejected.values().stream()
            .anyMatch(r -> r.code().equals(BlockerCode.SERVE_ROUTE_LOADER_FAILED.code()));
    }

    static Rejected rejectionOf(String name, List<String> ids, Throwable e) {
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
        // Camel's messages quote the endpoint with its parameters: the reason keeps the words, never a URI
        String masked = URI.matcher(Redactor.global().redact(why)).replaceAll("<uri>");
        return new Rejected(name, line, column, BlockerCode.SERVE_ROUTE_FILE_INVALID.code(), ids, masked);
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

    public List<Rejected> rejected() {
        return rejectedSnapshot;
    }

    /** True while a route file's loading threw an {@code Error}: readiness is DOWN. */
    public boolean loaderFailed() {
        return loaderFailed;
    }

    /** The refused files as readiness shows them: file, position, code and route ids only. */
    public String[] rejectedSummaries() {
        return rejectedSnapshot.stream().map(Rejected::summary).toArray(String[]::new);
    }

    @ManagedAttribute(description = "Route files loaded, with their route ids")
    public String getLoadedRouteFiles() {
        return loadedSnapshot;
    }

    @ManagedAttribute(description = "Route files refused: file:line:column code [ids] reason")
    public String[] getRejectedRouteFiles() {
        return rejectedSnapshot.stream().map(Rejected::describe).toArray(String[]::new);
    }
}
