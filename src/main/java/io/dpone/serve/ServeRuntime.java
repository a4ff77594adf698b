package io.dpone.serve;

import io.dpone.connect.ConnectionContext;
import io.dpone.connect.EmbeddedDefaults;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.camel.DponeCamel;
import io.dpone.route.FullRefreshRunner;
import io.dpone.route.LoadChunkProcessor;
import io.dpone.route.UploadChunkProcessor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.apache.camel.CamelContext;
import org.apache.camel.Processor;
import org.apache.camel.health.HealthCheckRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code dpone serve}: the shared camel-main context kept running as a pod. Starts the management HTTP server
 * (health at {@code /observe/health}, {@code /observe/health/live}, {@code /observe/health/ready}; Prometheus at
 * {@code /observe/metrics}), JMX with dpone's MBeans under {@code io.dpone:type=...}, the routes directory, and the
 * scheduled jobs. {@link #stop()} is the SIGTERM path: no new ticks, the chunk in flight finishes, the run keeps its
 * id for the next start, and the context stops within {@code shutdown.timeout}.
 */
public final class ServeRuntime implements AutoCloseable {
    public static final String DOMAIN = "io.dpone";
    /** The paths Camel's management HTTP server serves (camel-platform-http-main 4.18, {@code camel.management.*}). */
    public static final String HEALTH = "/observe/health";
    public static final String HEALTH_LIVE = HEALTH + "/live";
    public static final String HEALTH_READY = HEALTH + "/ready";
    public static final String METRICS = "/observe/metrics";
    /** The read-only status page ({@code io.dpone.status}); evidence files under {@code /observe/status/evidence/}. */
    public static final String STATUS = "/observe/status";
    private static final Logger LOG = LoggerFactory.getLogger(ServeRuntime.class);

    private final DponeCamel camel;
    private final ShutdownSignal signal;
    private final RouteDirectory routes;
    private final Map<String, BatchJob> jobs;
    private final Map<String, CdcStreamJob> streams;
    private final Path stateDir;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final EmbeddedEngineHold engine;
    private final ConnectionProbes probes;
    private final ManagementHttpGuard http;
    private final io.dpone.lineage.LineageEmitter lineage;

    private ServeRuntime(DponeCamel camel, ShutdownSignal signal, RouteDirectory routes, Map<String, BatchJob> jobs,
                         Map<String, CdcStreamJob> streams, Path stateDir, EmbeddedEngineHold engine,
                         ConnectionProbes probes, ManagementHttpGuard http, io.dpone.lineage.LineageEmitter lineage) {
        this.lineage = lineage;
        this.http = http;
        this.engine = engine;
        this.probes = probes;
        this.camel = camel;
        this.signal = signal;
        this.routes = routes;
        this.jobs = jobs;
        this.streams = streams;
        this.stateDir = stateDir;
    }

    /** Starts serving {@code config} with {@code context}; {@code overrides} rebind shipped processors (tests). */
    public static ServeRuntime start(ServeConfig config, ConnectionContext context, Map<String, Object> overrides) {
        Path stateDir = config.stateDir() != null ? config.stateDir() : EmbeddedDefaults.home().resolve("serve");
        ShutdownSignal signal = new ShutdownSignal();
        Map<String, Object> beans = new LinkedHashMap<>(overrides);
        checkHttpPort(config.httpHost(), config.httpPort());
        // the per-chunk steps of the transfer routes: streaming routes load, object-storage routes upload first
        beans.put("loadChunk", new StopAwareChunkStep(
            (Processor) overrides.getOrDefault("loadChunk", new LoadChunkProcessor()), signal));
        beans.put("uploadChunk", new StopAwareChunkStep(
            (Processor) overrides.getOrDefault("uploadChunk", new UploadChunkProcessor()), signal));
        // before any other thread exists: the engine connects once and stays up (see EmbeddedEngineHold)
        EmbeddedEngineHold engine = EmbeddedEngineHold.open(context, readinessAliases(config));
        // the management server's Vert.x (its threads start after the engine's connect): Camel finds it by type and
        // asks it for the server, which it bounds (see ManagementHttpGuard)
        ManagementHttpGuard http;
        try {
            http = new ManagementHttpGuard(config.httpIdleTimeout(), config.httpRequestTimeout());
        } catch (RuntimeException e) {
            engine.close();
            throw e;
        }
        beans.put(ManagementHttpGuard.BEAN, http);
        DponeCamel camel;
        try {
            camel = DponeCamel.start(null, true, beans, properties(config));
        } catch (RuntimeException e) { // e.g. the management port is taken
            http.shutdown();
            engine.close();
            throw new DponeException(BlockerCode.INTERNAL_ERROR, "serve", io.dpone.connect.Redactor.global().describe(e));
        }
        ConnectionProbes probes = null;
        io.dpone.lineage.LineageEmitter lineage = null;
        try {
            boolean managed = !"false".equalsIgnoreCase(properties(config).get("camel.management.enabled"));
            if (managed && !http.serving()) { // Camel found another Vert.x, or none: the port would run unbounded
                throw new DponeException(BlockerCode.INTERNAL_ERROR, "serve", "the management HTTP server did not "
                    + "start on serve's bounded Vert.x (" + ManagementHttpGuard.BEAN + "); refusing to run it unbounded");
            }
            CamelContext ctx = camel.context();
            StartedHealthCheck started = new StartedHealthCheck();
            HealthCheckRegistry.get(ctx).register(started);
            RouteDirectory routes = new RouteDirectory(ctx, config.routesDirectory(), config.routeFilePolicy());
            routes.scan();
            TargetLocks locks = new TargetLocks();
            JobState state = new JobState(stateDir);
            FullRefreshRunner runner = new FullRefreshRunner(camel, context, stateDir);
            Inspection inspection = new Inspection(ctx);
            StatusViews status = new StatusViews(stateDir);
            status.seed(config.jobs());
            List<RunObserver> observers = new ArrayList<>(List.of(status));
            if (config.lineage() != null) {
                lineage = io.dpone.lineage.LineageEmitter.of(config.lineage());
                observers.add(new LineageObserver(lineage));
            }
            RunObserver observer = RunObserver.all(observers);
            List<ServeRoutes.Entry> entries = new ArrayList<>();
            Map<String, BatchJob> jobs = new LinkedHashMap<>();
            for (ServeConfig.Job job : config.jobs()) {
                BatchJob b = new BatchJob(job, runner, state, locks, signal, inspection::route, observer);
                jobs.put(job.name(), b);
                inspection.job(b.stats());
                inspection.route(routeOf(job.manifest())); // its series exist at zero before the first run
                String id = "dpone_job_" + job.name();
                entries.add(new ServeRoutes.Entry(id, ServeRoutes.scheduleUri(id, job.schedule()), b));
            }
            for (ServeConfig.Fleet fleet : config.fleets()) {
                FleetJob f = new FleetJob(fleet, runner, context, stateDir, state, locks, signal);
                inspection.fleet(f.stats());
                String id = "dpone_fleet_" + fleet.name();
                entries.add(new ServeRoutes.Entry(id, ServeRoutes.scheduleUri(id, fleet.schedule()), f));
            }
            Map<String, CdcStreamJob> streams = new LinkedHashMap<>();
            for (ServeConfig.CdcStream stream : config.cdcStreams()) {
                CdcStreamJob c = new CdcStreamJob(stream, camel, locks, signal, context, observer);
                streams.put(stream.name(), c);
                inspection.cdc(c.stats());
                String id = "dpone_cdc_" + stream.name();
                entries.add(new ServeRoutes.Entry(id, ServeRoutes.scheduleUri(id, stream.schedule()), c));
            }
            for (ServeConfig.CertificationSpec spec : config.certifications()) {
                CertificationJob c = new CertificationJob(spec, context, stateDir, locks, signal);
                inspection.bean(c, "certifications", spec.name());
                String id = "dpone_certify_" + spec.name();
                entries.add(new ServeRoutes.Entry(id, "direct:" + id, c));
            }
            if (config.routesReload() && config.routesDirectory() != null) {
                entries.add(new ServeRoutes.Entry("dpone_routes_reload", "timer:dpone_routes_reload?period="
                    + config.reloadInterval().toMillis() + "&delay=" + config.reloadInterval().toMillis(),
                    exchange -> {
                        try {
                            routes.scan();
                        } catch (Throwable t) { // scan catches per file; this keeps the timer alive whatever happens
                            LOG.error("routes directory scan failed: {}", t.getClass().getSimpleName());
                        }
                    }));
            }
            inspection.bean(routes, "serve", "routes");
            HealthCheckRegistry health = HealthCheckRegistry.get(ctx);
            List<ConnectionHealthCheck> checks = new ArrayList<>();
            for (String alias : readinessAliases(config)) {
                ConnectionHealthCheck check = new ConnectionHealthCheck(context, alias, config.probeTimeout());
                health.register(check);
                inspection.connection(check);
                checks.add(check);
            }
            probes = new ConnectionProbes(checks);
            health.register(new RouteFilesHealthCheck(routes));
            addRoutes(ctx, entries);
            mountStatus(ctx, status, jobs, streams);
            LOG.info("dpone serve started: {} job(s), {} fleet(s), {} CDC stream(s), {} certification(s); management "
                + "port {}: health {} ({}, {}), metrics {}, status page {}", jobs.size(), config.fleets().size(),
                streams.size(),
                config.certifications().size(), config.httpPort(), HEALTH, HEALTH_LIVE, HEALTH_READY, METRICS, STATUS);
            ServeRuntime runtime = new ServeRuntime(camel, signal, routes, jobs, streams, stateDir, engine, probes, http,
                lineage);
            started.started();
            return runtime;
        } catch (Exception e) {
            if (probes != null) {
                probes.close();
            }
            if (lineage != null) {
                lineage.close();
            }
            camel.close();
            http.shutdown();
            engine.close();
            if (e instanceof DponeException d) {
                throw d;
            }
            throw new DponeException(BlockerCode.INTERNAL_ERROR, "serve", "serve failed to start: "
                + io.dpone.connect.Redactor.global().describe(e));
        }
    }

    /**
     * Adds the status page to the management HTTP server's router (camel-platform-http-main's
     * {@code ManagementHttpServer}); without a management server (management disabled by a camel property) there is
     * no page.
     */
    private static void mountStatus(CamelContext ctx, StatusViews status, Map<String, BatchJob> jobs,
                                    Map<String, CdcStreamJob> streams) {
        var server = ctx.hasService(org.apache.camel.component.platform.http.main.ManagementHttpServer.class);
        if (server == null || server.getRouter() == null) {
            LOG.info("no management HTTP server: the status page ({}) is not served", STATUS);
            return;
        }
        new io.dpone.status.StatusHttp(STATUS, () -> status.snapshot(jobs, streams, ctx), status.history())
            .mount(server.getRouter());
    }

    /**
     * Refuses a management port out of range ({@code serve.http_port_invalid}) or one that cannot be bound
     * ({@code serve.http_port_unavailable}: in use, or an address this host does not have) before anything starts:
     * Camel's HTTP server binds asynchronously and would leave a serve running without health or metrics.
     */
    static void checkHttpPort(String host, int port) {
        if (port < 1 || port > 65535) {
            throw new DponeException(BlockerCode.SERVE_HTTP_PORT_INVALID, "http.port",
                "the management port must be between 1 and 65535, got " + port);
        }
        try (java.net.ServerSocket probe = new java.net.ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(new java.net.InetSocketAddress(java.net.InetAddress.getByName(host), port));
        } catch (java.io.IOException | RuntimeException e) {
            throw new DponeException(BlockerCode.SERVE_HTTP_PORT_UNAVAILABLE, "http.port",
                "the management port " + port + " cannot be bound on http.host " + host + " ("
                    + e.getClass().getSimpleName() + "): another process holds it, or the host has no such address");
        }
    }

    /** The route a manifest's runs go through (and report). */
    static String routeOf(io.dpone.manifest.BatchManifest m) {
        return io.dpone.publication.runtime.ClusterPublicationRunner.requested(m)
            ? io.dpone.publication.runtime.ClusterPublicationRunner.ROUTE_ID : m.sink().options().route();
    }

    static Map<String, String> properties(ServeConfig config) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("camel.main.shutdownTimeout", String.valueOf(Math.max(1, config.shutdownTimeout().toSeconds())));
        p.put("camel.main.jmxEnabled", "true");
        p.put("camel.management.enabled", "true");
        p.put("camel.management.port", String.valueOf(config.httpPort()));
        p.put("camel.management.host", config.httpHost());
        p.put("camel.management.healthCheckEnabled", "true");
        p.put("camel.management.metricsEnabled", "true");
        p.put("camel.metrics.enabled", "true");
        p.put("camel.metrics.binders", "jvm-memory,jvm-gc,jvm-thread,processor,class-loader,file-descriptor,uptime");
        p.put("camel.health.exposureLevel", "full");
        // readiness means "route traffic to me": a route an operator stopped over JMX, or its consumer, is not a
        // reason to leave the Service (route state is in JMX); connections are a metric and a health detail
        p.put("camel.health.routesEnabled", "false");
        p.put("camel.health.consumersEnabled", "false");
        p.putAll(config.camelProperties());
        return p;
    }

    /**
     * The aliases readiness reports: every job's and fleet manifest's source and sink, the object storage its columnar fast path stages
     * through ({@code runtime_access.connection_id}), plus {@code readiness.connections}.
     */
    static Set<String> readinessAliases(ServeConfig config) {
        Set<String> aliases = new LinkedHashSet<>();
        List<io.dpone.manifest.BatchManifest> manifests = new ArrayList<>();
        config.jobs().forEach(job -> manifests.add(job.manifest()));
        config.fleets().forEach(fleet -> manifests.addAll(fleet.manifests()));
        for (io.dpone.manifest.BatchManifest m : manifests) {
            aliases.add(m.source().connectionRef());
            aliases.add(m.sink().connectionRef());
            io.dpone.manifest.ColumnarFastPath.of(m.source().nativeTransfer())
                .map(io.dpone.manifest.ColumnarFastPath::runtimeConnectionId).ifPresent(aliases::add);
        }
        aliases.addAll(config.readiness());
        return aliases;
    }

    public CamelContext context() {
        return camel.context();
    }

    public RouteDirectory routes() {
        return routes;
    }

    public BatchJob job(String name) {
        return jobs.get(name);
    }

    public CdcStreamJob cdcStream(String name) {
        return streams.get(name);
    }

    public Path stateDir() {
        return stateDir;
    }

    public boolean stopping() {
        return signal.stopping();
    }

    /**
     * The SIGTERM path: flags the stop (no new tick starts; a load in flight stops after its current chunk), then
     * stops the Camel context, which waits for in-flight exchanges up to {@code shutdown.timeout}. Idempotent.
     */
    public void stop() {
        if (stopped.getCount() == 0) {
            return;
        }
        LOG.info("dpone serve stopping: no new runs; a run in flight stops at its next chunk boundary");
        signal.stop();
        probes.close();
        try {
            camel.close();
        } finally {
            http.shutdown();
            engine.close();
            if (lineage != null) {
                lineage.close(); // after the context: the runs the stop interrupted have sent their ABORT
            }
            LOG.info("dpone serve stopped");
            stopped.countDown();
        }
    }

    /** Blocks until {@link #stop()} has finished. */
    public void awaitStopped() throws InterruptedException {
        stopped.await();
    }

    @Override
    public void close() {
        stop();
    }

    /**
     * Adds serve's own routes to the running context. Quartz fires a cron route's trigger as soon as its job is added
     * (Camel's {@code triggerStartDelay}, 500 ms); under load that came before the route was in the context, so the
     * job found no endpoint, clashed with its own trigger, and the cron job never ran (CI, 2026-12-05,
     * {@code ServeReadinessAndCdcTest}). The scheduler stands by until every route is in, then fires what is due.
     */
    private static void addRoutes(org.apache.camel.CamelContext ctx, List<ServeRoutes.Entry> entries)
            throws Exception {
        org.quartz.Scheduler cron = entries.stream().anyMatch(e -> e.uri().startsWith("quartz:"))
            ? ctx.getComponent("quartz", org.apache.camel.component.quartz.QuartzComponent.class).getScheduler()
            : null;
        if (cron != null) {
            cron.standby();
        }
        try {
            ctx.addRoutes(new ServeRoutes(entries));
        } finally {
            if (cron != null) {
                cron.start();
            }
        }
    }
}
