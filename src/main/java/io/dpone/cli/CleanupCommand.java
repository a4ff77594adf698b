package io.dpone.cli;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseEndpoints;
import io.dpone.clickhouse.TableAdmin;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.EmbeddedDefaults;
import io.dpone.error.DponeException;
import io.dpone.manifest.ShortDuration;
import io.dpone.route.RunPlan;
import io.dpone.route.StagingNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code dpone ops cleanup}: what runs that will not resume left behind, listed, and dropped with {@code --apply}:
 * staging tables ({@code __dpone_stg__<table>__<run key>}) on a ClickHouse alias, spooled chunks under
 * {@code $DPONE_HOME/spool} and, with {@code --manifest}, the object-storage run prefixes of those manifests'
 * {@code uri_prefix} templates ({@link ObjectPrefixScan}). Never touched: a run's leftovers younger than {@code --older-than} (a live run, or one
 * that may still resume) and those of a run recorded as interrupted within that window (its resume reuses them).
 * An embedded engine another dpone process holds cannot be opened at all ({@code sink.embedded_engine_unavailable}):
 * then nothing is listed or dropped.
 */
@Command(name = "cleanup", sortOptions = false, mixinStandardHelpOptions = true,
    description = "List (and with --apply drop) the staging tables and spooled chunks of runs that will not resume.")
public final class CleanupCommand implements Callable<Integer> {
    static final String SCHEMA = "dpone.ops_cleanup.v1";

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--sink-connection-id", defaultValue = EmbeddedDefaults.CLICKHOUSE_ALIAS,
        description = "ClickHouse alias whose staging tables are examined (default: ${DEFAULT-VALUE})")
    String sinkConnectionId;

    @Option(names = "--database", description = "only this database (repeat for more; default: every database)")
    List<String> databases;

    @Option(names = "--older-than", defaultValue = "24h",
        description = "leftovers untouched for less than this are kept: a live run, or one that may resume "
            + "(default: ${DEFAULT-VALUE})")
    String olderThan;

    @Option(names = "--manifest", paramLabel = "FILE", description = "also examine the object-storage run prefixes "
        + "of this manifest's uri_prefix template (repeat for more)")
    List<Path> manifests;

    @Option(names = "--apply", description = "drop what is listed as a candidate (default: list only)")
    boolean apply;

    @Option(names = "--format", defaultValue = "text", description = "json or text (default: ${DEFAULT-VALUE})")
    Format format;

    /** What this invocation found, sorted as it is considered ({@link #consider}). */
    private final List<Map<String, Object>> candidates = new ArrayList<>();
    private final List<Map<String, Object>> kept = new ArrayList<>();
    private final Map<String, Map<String, Object>> records = new LinkedHashMap<>();
    private Instant cutoff;

    @Override
    public Integer call() {
        Duration window = ShortDuration.parse(olderThan).orElse(null);
        if (window == null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                "--older-than must be a duration such as 0s, 30m, 24h or 168h");
        }
        Path home = EmbeddedDefaults.home();
        cutoff = Instant.now().minus(window);
        for (Map<String, Object> r : io.dpone.route.RunRecords.all(home)) {
            if (r.get("run_id") instanceof String id) {
                records.putIfAbsent(RunPlan.keyOf(id), r);
            }
        }
        ConnectionContext context;
        ObjectPrefixScan objects;
        try {
            context = ConnectionContext.fromEnvironment();
            // every manifest loaded and every store listed before anything is dropped
            objects = manifests == null ? null : new ObjectPrefixScan(context, manifests);
        } catch (DponeException e) {
            return blocked(e);
        }
        try (ObjectPrefixScan scan = objects; ClickHouseEndpoint ch = ClickHouseEndpoints.open(context
                .resolve(sinkConnectionId, ConnectionType.CLICKHOUSE, "--sink-connection-id"))) {
            TableAdmin admin = new TableAdmin(ch);
            for (TableAdmin.TableActivity t : admin.tablesWithPrefixEverywhere(StagingNames.PREFIX)) {
                if (databases == null || databases.contains(t.database())) {
                    consider("staging_table", t.database() + "." + t.name(),
                        t.name().substring(t.name().lastIndexOf("__") + 2), t.lastActivity(), item -> {
                            admin.drop(t.database(), t.name());
                            item.put("action", "dropped");
                        });
                }
            }
            if (scan != null) {
                for (ObjectPrefixScan.Leftover l : scan.leftovers()) {
                    consider("object_prefix", l.name(), RunPlan.keyOf(l.prefix().runId()), l.lastActivity(),
                        item -> {
                            item.put("objects_deleted", scan.delete(l));
                            item.put("action", "deleted");
                        });
                }
            }
        } catch (DponeException e) {
            return blocked(e);
        }
        for (Path dir : spoolDirectories(home)) {
            String key = dir.getFileName().toString();
            consider("spooled_chunks", "$DPONE_HOME/spool/" + key, key, lastModified(dir), item -> {
                deleteTree(dir);
                item.put("action", "deleted");
            });
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("schema", SCHEMA);
        doc.put("passed", true);
        doc.put("applied", apply);
        doc.put("older_than", olderThan);
        doc.put("candidates", candidates);
        doc.put("kept", kept);
        if (manifests == null) {
            doc.put("not_covered", "object-storage run prefixes: name the manifests whose uri_prefix to examine with "
                + "--manifest (a run deletes its own, and a resume of the same run id deletes what an earlier attempt "
                + "left)");
        }
        return Output.emit(true, doc, text(doc), format);
    }

    private int blocked(DponeException e) {
        return Output.emit(false, Map.of("schema", SCHEMA, "passed", false, "blockers", e.blockers()),
            "ops cleanup: nothing listed or dropped:\n" + Output.blockersText(e.blockers()), format);
    }

    /**
     * One leftover of run key {@code key}, last touched at {@code last}: a candidate (removed by {@code remove}, which
     * puts what it did, only with {@code --apply}) or kept, either way with its reason.
     */
    private void consider(String kind, String name, String key, Instant last,
                          java.util.function.Consumer<Map<String, Object>> remove) {
        Map<String, Object> item = item(kind, name, key, records, last);
        if (decide(item, records.get(key), last, cutoff)) {
            if (apply) {
                remove.accept(item);
            }
            candidates.add(item);
        } else {
            kept.add(item);
        }
    }

    private static Map<String, Object> item(String kind, String name, String key,
                                            Map<String, Map<String, Object>> records, Instant last) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("kind", kind);
        item.put("name", name);
        item.put("run_key", key);
        Map<String, Object> r = records.get(key);
        item.put("run_id", r == null ? null : r.get("run_id"));
        item.put("run_status", r == null ? "unrecorded" : r.get("status"));
        item.put("last_activity", last == null ? null : last.toString());
        return item;
    }

    /** True when {@code item} is a candidate; its reason is put either way. */
    private boolean decide(Map<String, Object> item, Map<String, Object> record, Instant last, Instant cutoff) {
        if (last == null || last.isAfter(cutoff)) {
            item.put("reason", "active within --older-than " + olderThan + ": a live run, or one that may resume");
            return false;
        }
        if (record != null && "interrupted".equals(record.get("status")) && record.get("finished_at") != null
                && Instant.parse((String) record.get("finished_at")).isAfter(cutoff)) {
            item.put("reason", "its run was interrupted within --older-than " + olderThan + "; " + record.get("next"));
            return false;
        }
        item.put("reason", (record == null ? "no run record names it" : "run " + record.get("run_id") + " ("
            + record.get("status") + ")") + "; untouched for longer than --older-than " + olderThan
            + ", so no run will resume from it");
        item.put("action", "would drop (--apply drops it)");
        return true;
    }

    @SuppressWarnings("unchecked")
    private static String text(Map<String, Object> doc) {
        StringBuilder sb = new StringBuilder();
        List<Map<String, Object>> candidates = (List<Map<String, Object>>) doc.get("candidates");
        List<Map<String, Object>> kept = (List<Map<String, Object>>) doc.get("kept");
        sb.append(candidates.isEmpty() ? "nothing to clean up" : candidates.size() + " leftover(s) of runs that will not resume"
            + (Boolean.TRUE.equals(doc.get("applied")) ? ", removed:" : " (list only; --apply removes them):")).append('\n');
        for (Map<String, Object> c : candidates) {
            sb.append("  ").append(c.get("action")).append(": ").append(c.get("kind")).append(' ').append(c.get("name"))
                .append(" (").append(c.get("reason")).append(")\n");
        }
        if (!kept.isEmpty()) {
            sb.append(kept.size()).append(" kept:\n");
            kept.forEach(k -> sb.append("  ").append(k.get("kind")).append(' ').append(k.get("name")).append(" (")
                .append(k.get("reason")).append(")\n"));
        }
        return sb.toString();
    }

    private static List<Path> spoolDirectories(Path home) {
        Path spool = home.resolve("spool");
        if (!Files.isDirectory(spool)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(spool)) {
            return s.filter(Files::isDirectory).filter(p -> p.getFileName().toString().matches("[0-9a-f]{16}"))
                .sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static Instant lastModified(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.map(p -> {
                try {
                    return Files.getLastModifiedTime(p).toInstant();
                } catch (IOException e) {
                    return Instant.now();
                }
            }).max(Comparator.naturalOrder()).orElse(null);
        } catch (IOException | java.io.UncheckedIOException e) {
            return null; // unreadable: treated as active, never deleted
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot delete spooled chunks", e);
        }
    }
}
