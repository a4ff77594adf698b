package io.dpone.fleet;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.camel.DponeCamel;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseEndpoints;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.Redactor;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.manifest.BatchManifest;
import io.dpone.manifest.ManifestLoader;
import io.dpone.manifest.RunId;
import io.dpone.report.Json;
import io.dpone.report.ReportWriter;
import io.dpone.route.FullRefreshRunner;
import io.dpone.route.ProgressListener;
import io.dpone.route.RunRecords;
import io.dpone.route.RunReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;

/**
 * A fleet in one process ({@code dpone run DIR --run-id ID}): every manifest of a directory {@code dpone discover}
 * wrote (or of any directory of {@code *.batch.yaml}) through one camel-main context, one embedded engine and one
 * warm JIT, at most {@code parallel} tables at a time (two manifests loading one target table never at once). Each
 * table runs as {@code dpone run} would, with the run id {@code <ID>.<manifest stem>}, so a table stopped mid-load
 * resumes from its staged chunks; the fleet report ({@link FleetReport}) is rewritten after every table under
 * {@code <state>/fleet/<ID>/}, and a rerun with the same {@code ID} runs again only the tables that did not pass (a
 * passed table whose manifest changed since runs again too).
 */
public final class FleetRunner {
    public static final String MANIFEST_SUFFIX = ".batch.yaml";
    public static final String REPORT_FILE = "fleet_run.json";

    /** What the fleet shows while it runs (stderr in the CLI). */
    public interface Listener {
        Listener NONE = new Listener() {
        };

        default void started(String manifest, String runId) {
        }

        default void finished(FleetReport.TableRun table, int done, int total, int running) {
        }
    }

    /** The fleet's input, run id and bounds. */
    public record Request(Path input, String runId, int parallel, ConnectionContext context, Path stateDir) {
    }

    /**
     * What differs between the callers: how a table takes its target table (two runs never load one target at once),
     * when the fleet stops starting tables, and what a table's run record says resumes it and who ran it.
     */
    public interface Host {
        /** Takes the target's lock, waiting while another run holds it; false when the fleet is stopping first. */
        boolean lockTarget(String key);

        void unlockTarget(String key);

        /** True when no further table should start (the process is stopping). */
        boolean stopping();

        /** The run record's "next" line for a table that did not pass. */
        String resume(Request req);

        /** The run record's "by". */
        String by();

        /** The manifest as this caller runs it (serve gives a manifest without {@code retry:} its own budget). */
        default BatchManifest prepare(BatchManifest manifest) {
            return manifest;
        }
    }

    /** {@code dpone run DIR}: per-fleet target locks, the process's shutdown, the command line to resume. */
    public static Host commandLine() {
        Map<String, ReentrantLock> targets = new ConcurrentHashMap<>();
        return new Host() {
            @Override
            public boolean lockTarget(String key) {
                targets.computeIfAbsent(key, k -> new ReentrantLock()).lock();
                return true;
            }

            @Override
            public void unlockTarget(String key) {
                targets.get(key).unlock();
            }

            @Override
            public boolean stopping() {
                return io.dpone.route.ProcessShutdown.inProgress();
            }

            @Override
            public String resume(Request req) {
                return "dpone run " + req.input() + " --run-id " + req.runId()
                    + " (the fleet reruns the tables that did not pass)";
            }

            @Override
            public String by() {
                return "dpone run (fleet)";
            }
        };
    }

    private FleetRunner() {
    }

    /** The default bound: the machine's processors, at least 2 (the runs wait on I/O), at most 8. */
    public static int defaultParallel() {
        return Math.max(2, Math.min(8, Runtime.getRuntime().availableProcessors()));
    }

    /** True when {@code input} names a fleet: a directory, or a {@code catalog.json}. */
    public static boolean isFleet(Path input) {
        return Files.isDirectory(input) || input.getFileName().toString().equals("catalog.json");
    }

    /** The manifests of a fleet input, sorted: {@code DIR/manifests/*.batch.yaml}, else {@code DIR/*.batch.yaml}. */
    public static List<Path> manifests(Path input) {
        Path dir = Files.isDirectory(input) ? input : input.toAbsolutePath().getParent();
        Path sub = dir.resolve("manifests");
        Path from = Files.isDirectory(sub) ? sub : dir;
        try (Stream<Path> files = Files.list(from)) {
            return files.filter(p -> p.getFileName().toString().endsWith(MANIFEST_SUFFIX) && Files.isRegularFile(p))
                .sorted().toList();
        } catch (IOException e) {
            throw new DponeException(BlockerCode.MANIFEST_UNREADABLE, "--manifest",
                "cannot list the fleet's manifests (" + e.getClass().getSimpleName() + ")");
        }
    }

    /** The directory of a fleet run's reports. */
    public static Path directory(Path stateDir, String runId) {
        return stateDir.resolve("fleet").resolve(runId);
    }

    /** Runs the fleet in a camel-main context of its own ({@code dpone run DIR}); never throws for a table's failure. */
    public static FleetReport run(Request req, Listener listener) {
        try (DponeCamel camel = DponeCamel.start(null, false)) {
            return run(req, listener, new FullRefreshRunner(camel, req.context(), req.stateDir()), commandLine());
        }
    }

    /**
     * Runs the fleet through {@code runner} (serve's, or the command line's); never throws for a table's failure (its
     * entry says it).
     */
    public static FleetReport run(Request req, Listener listener, FullRefreshRunner runner, Host host) {
        if (!RunId.valid(req.runId())) {
            throw new DponeException(BlockerCode.RUN_ID_INVALID, "--run-id", RunId.RULE);
        }
        List<Path> manifests = manifests(req.input());
        if (manifests.isEmpty()) {
            throw new DponeException(BlockerCode.MANIFEST_UNREADABLE, "MANIFEST",
                "the directory holds no *" + MANIFEST_SUFFIX + " manifest (nor a manifests/ directory of them)");
        }
        Path dir = directory(req.stateDir(), req.runId());
        Map<String, FleetReport.TableRun> earlier = earlier(dir.resolve(REPORT_FILE));
        Instant started = Instant.now();
        Map<String, FleetReport.TableRun> results = new LinkedHashMap<>();
        List<Path> toRun = new ArrayList<>();
        for (Path m : manifests) {
            String name = m.getFileName().toString();
            String digest = sha256(m);
            FleetReport.TableRun before = earlier.get(name);
            if (before != null && before.status().equals("passed") && digest.equals(before.manifestSha256())) {
                results.put(name, new FleetReport.TableRun(name, digest, before.runId(), "passed", "earlier",
                    before.sourceTable(), before.targetTable(), before.routeId(), before.loadedRows(),
                    before.durationMs(), before.gates(), before.blockers(), before.report()));
            } else {
                results.put(name, new FleetReport.TableRun(name, digest, tableRunId(req.runId(), name), "not_run",
                    "this", null, null, null, 0, 0, List.of(), List.of(), null));
                toRun.add(m);
            }
        }
        int parallel = Math.max(1, req.parallel());
        Object lock = new Object();
        int[] done = {results.size() - toRun.size()};
        int[] running = {0};
        write(dir, req, parallel, results, started, lock);
        if (!toRun.isEmpty()) {
            List<AutoCloseable> holds = holdEngines(toRun, req.context());
            ExecutorService pool = Executors.newFixedThreadPool(Math.min(parallel, toRun.size()), r -> {
                Thread t = new Thread(r, "dpone-fleet");
                t.setDaemon(true);
                return t;
            });
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (Path m : toRun) {
                    futures.add(pool.submit(() -> {
                        String name = m.getFileName().toString();
                        String runId = results.get(name).runId();
                        if (host.stopping()) {
                            return; // stopping: the table stays not_run, and the rerun runs it
                        }
                        synchronized (lock) {
                            running[0]++;
                        }
                        listener.started(name, runId);
                        FleetReport.TableRun r = runOne(runner, m, name, runId, results.get(name).manifestSha256(),
                            dir, host, host.resume(req));
                        synchronized (lock) {
                            running[0]--;
                            if (r == null) { // stopped while waiting for its target: not run
                                return;
                            }
                            results.put(name, r);
                            done[0]++;
                            write(dir, req, parallel, results, started, lock);
                            listener.finished(r, done[0], results.size(), running[0]);
                        }
                    }));
                }
                for (Future<?> f : futures) {
                    f.get();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            } finally {
                pool.shutdownNow();
                holds.forEach(h -> {
                    try {
                        h.close();
                    } catch (Exception ignored) {
                        // the engine closes with the process anyway
                    }
                });
            }
        }
        synchronized (lock) {
            return write(dir, req, parallel, results, started, lock);
        }
    }

    /** One table's run; null when the fleet stopped while it waited for its target table. */
    private static FleetReport.TableRun runOne(FullRefreshRunner runner, Path manifest, String name, String runId,
                                               String digest, Path dir, Host host, String resume) {
        long t0 = System.nanoTime();
        BatchManifest m;
        try {
            m = host.prepare(ManifestLoader.load(manifest));
        } catch (DponeException e) {
            return failed(name, digest, runId, e.blockers(), t0);
        }
        String target = m.sink().connectionRef() + ":" + m.sink().table();
        if (!host.lockTarget(target)) {
            return null;
        }
        RunReport r;
        try {
            r = runner.run(m, runId, ProgressListener.NONE);
        } catch (DponeException e) {
            return failed(name, digest, runId, e.blockers(), t0);
        } catch (RuntimeException e) {
            return failed(name, digest, runId, List.of(Blocker.of(BlockerCode.INTERNAL_ERROR, "runtime",
                Redactor.global().describe(e))), t0);
        } finally {
            host.unlockTarget(target);
        }
        String report = "tables/" + stem(name) + ".run.json";
        ReportWriter.writeJson(dir.resolve(report), r);
        RunRecords.record(runner.workDir(), r, resume, host.by());
        return new FleetReport.TableRun(name, digest, runId, r.passed() ? "passed" : "failed", "this",
            r.sourceTable(), r.targetTable(), r.routeId(), r.loadedRows(), r.durationMs(),
            r.gates().stream().map(g -> new FleetReport.Gate(g.gate(), g.status())).toList(), r.blockers(), report);
    }

    private static FleetReport.TableRun failed(String name, String digest, String runId, List<Blocker> blockers,
                                               long t0) {
        return new FleetReport.TableRun(name, digest, runId, "failed", "this", null, null, null, 0,
            Duration.ofNanos(System.nanoTime() - t0).toMillis(), List.of(), blockers, null);
    }

    /** Keeps each embedded ClickHouse the manifests load into open for the whole fleet (one engine start). */
    private static List<AutoCloseable> holdEngines(List<Path> manifests, ConnectionContext ctx) {
        List<AutoCloseable> holds = new ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (Path p : manifests) {
            String alias = ManifestLoader.connectionRefs(p, List.of("sink.connection_ref")).get("sink.connection_ref");
            if (alias == null || !seen.add(alias)) {
                continue;
            }
            try {
                ConnectionSpec spec = ctx.resolve(alias, ConnectionType.CLICKHOUSE, "sink.connection_ref");
                if (spec.embedded()) {
                    ClickHouseEndpoint endpoint = ClickHouseEndpoints.open(spec);
                    holds.add(endpoint);
                }
            } catch (RuntimeException e) {
                // the table's own run reports the alias's problem
            }
        }
        return holds;
    }

    private static FleetReport write(Path dir, Request req, int parallel, Map<String, FleetReport.TableRun> results,
                                     Instant started, Object lock) {
        synchronized (lock) {
            List<FleetReport.TableRun> tables = List.copyOf(results.values());
            int passed = (int) tables.stream().filter(t -> t.status().equals("passed")).count();
            int failed = (int) tables.stream().filter(t -> t.status().equals("failed")).count();
            int notRun = (int) tables.stream().filter(t -> t.status().equals("not_run")).count();
            int carried = (int) tables.stream().filter(t -> t.attempt().equals("earlier")).count();
            long rows = tables.stream().filter(t -> t.attempt().equals("this")).mapToLong(FleetReport.TableRun::loadedRows)
                .sum();
            long millis = tables.stream().filter(t -> t.attempt().equals("this"))
                .mapToLong(FleetReport.TableRun::durationMs).sum();
            Instant now = Instant.now();
            FleetReport report = new FleetReport(FleetReport.SCHEMA, req.runId(), passed == tables.size(), parallel,
                new FleetReport.Totals(tables.size(), passed, failed, notRun, carried, rows, millis), tables, started,
                now, Duration.between(started, now).toMillis());
            ReportWriter.writeJson(dir.resolve(REPORT_FILE), report);
            return report;
        }
    }

    /** The entries of an earlier attempt's report, by manifest file name; none when there is none readable. */
    static Map<String, FleetReport.TableRun> earlier(Path file) {
        Map<String, FleetReport.TableRun> out = new LinkedHashMap<>();
        try {
            if (!Files.isRegularFile(file)) {
                return out;
            }
            JsonNode root = Json.MAPPER.readTree(file.toFile());
            if (!FleetReport.SCHEMA.equals(root.path("schema").asText())) {
                return out;
            }
            for (JsonNode t : root.path("tables")) {
                FleetReport.TableRun r = Json.MAPPER.treeToValue(t, FleetReport.TableRun.class);
                out.put(r.manifest(), r);
            }
        } catch (IOException | RuntimeException e) {
            out.clear(); // unreadable: every table runs again (each resumes from its own staged chunks)
        }
        return out;
    }

    /** {@code <fleet id>.<manifest stem>}, shortened with a digest to the run-id bound. */
    static String tableRunId(String fleetId, String manifestName) {
        String id = fleetId + "." + stem(manifestName).replaceAll("[^A-Za-z0-9._-]", "_");
        if (id.length() > 128) {
            String d = HexFormat.of().formatHex(digest(id.getBytes(StandardCharsets.UTF_8))).substring(0, 12);
            id = id.substring(0, 115) + "-" + d;
        }
        return id;
    }

    private static String stem(String manifestName) {
        return manifestName.endsWith(MANIFEST_SUFFIX)
            ? manifestName.substring(0, manifestName.length() - MANIFEST_SUFFIX.length()) : manifestName;
    }

    private static String sha256(Path file) {
        try {
            return HexFormat.of().formatHex(digest(Files.readAllBytes(file)));
        } catch (IOException e) {
            return "";
        }
    }

    private static byte[] digest(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
