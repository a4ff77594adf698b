package io.dpone.serve;

import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.manifest.BatchManifest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A validated {@code dpone serve} configuration (see {@code examples/serve/embedded-serve.yaml} and
 * {@code docs/operations.md}). Paths are absolute (resolved against the configuration file's directory).
 *
 * @param httpPort         port of the management HTTP server (health, metrics); {@code --http-port} overrides it
 * @param httpHost         the address the management HTTP server binds ({@code 127.0.0.1} unless opened on purpose)
 * @param httpIdleTimeout  a management connection with no bytes in either direction for this long is closed
 * @param httpRequestTimeout a management request must arrive in full within this bound of its first byte (or of the
 *                         connection's opening), else it is answered 408 or its connection closed
 * @param stateDir         durable serve state: in-flight run ids per job, run journals, spooled chunks; null means
 *                         {@code $DPONE_HOME/serve}
 * @param routesDirectory  a directory of YAML DSL route files loaded one file at a time; null for none
 * @param routesReload     whether the routes directory is rescanned for new or changed files
 * @param allowedComponents components a route file may use besides {@link RouteFilePolicy#DEFAULT_COMPONENTS}
 * @param fileDirectories  the directories a route file's {@code file:} endpoints may name
 * @param reloadInterval   how often the routes directory is rescanned
 * @param shutdownTimeout  the bound of a graceful stop ({@code camel.main.shutdown-timeout})
 * @param readiness        extra connection aliases whose reachability the readiness probe reports
 * @param probeTimeout     how long one connection probe may take before its alias shows DOWN
 * @param camelProperties  camel-main properties applied over serve's own ({@code camel.main.*}, {@code camel.metrics.*}, ...)
 * @param fleets           directories of manifests run as one fleet each ({@code fleets:}), like {@code dpone run DIR}
 * @param lineage          where the OpenLineage events go ({@code lineage:}); null: none are emitted
 */
public record ServeConfig(int httpPort, String httpHost, Duration httpIdleTimeout, Duration httpRequestTimeout,
                          Path stateDir, Path routesDirectory, boolean routesReload,
                          List<String> allowedComponents, List<Path> fileDirectories, Duration reloadInterval, Duration shutdownTimeout, List<String> readiness, Duration probeTimeout,
                          List<Job> jobs, List<Fleet> fleets, List<CdcStream> cdcStreams, List<CertificationSpec> certifications,
                          Map<String, String> camelProperties, io.dpone.lineage.LineageConfig lineage) {
    public static final int DEFAULT_HTTP_PORT = 8080;
    public static final String DEFAULT_HTTP_HOST = "127.0.0.1";

    public ServeConfig {
        allowedComponents = List.copyOf(allowedComponents);
        fileDirectories = List.copyOf(fileDirectories);
        readiness = List.copyOf(readiness);
        jobs = List.copyOf(jobs);
        fleets = List.copyOf(fleets);
        cdcStreams = List.copyOf(cdcStreams);
        certifications = List.copyOf(certifications);
        camelProperties = Map.copyOf(camelProperties);
    }

    /** A copy listening on {@code port} ({@code --http-port}). */
    public ServeConfig withHttpPort(int port) {
        return new ServeConfig(port, httpHost, httpIdleTimeout, httpRequestTimeout,
            stateDir, routesDirectory, routesReload, allowedComponents, fileDirectories, reloadInterval, shutdownTimeout,
            readiness, probeTimeout, jobs, fleets, cdcStreams, certifications, camelProperties, lineage);
    }

    /** A copy binding the management server to {@code host} ({@code --http-host}). */
    public ServeConfig withHttpHost(String host) {
        return new ServeConfig(httpPort, host, httpIdleTimeout, httpRequestTimeout,
            stateDir, routesDirectory, routesReload, allowedComponents, fileDirectories, reloadInterval, shutdownTimeout,
            readiness, probeTimeout, jobs, fleets, cdcStreams, certifications, camelProperties, lineage);
    }

    /** A copy keeping its state under {@code dir} ({@code --state-dir}). */
    public ServeConfig withStateDir(Path dir) {
        return new ServeConfig(httpPort, httpHost, httpIdleTimeout, httpRequestTimeout,
            dir, routesDirectory, routesReload, allowedComponents, fileDirectories, reloadInterval, shutdownTimeout,
            readiness, probeTimeout, jobs, fleets, cdcStreams, certifications, camelProperties, lineage);
    }

    /** A copy sending its lineage events to {@code to} (null: none). */
    public ServeConfig withLineage(io.dpone.lineage.LineageConfig to) {
        return new ServeConfig(httpPort, httpHost, httpIdleTimeout, httpRequestTimeout,
            stateDir, routesDirectory, routesReload, allowedComponents, fileDirectories, reloadInterval, shutdownTimeout,
            readiness, probeTimeout, jobs, fleets, cdcStreams, certifications, camelProperties, to);
    }

    /** The route file policy this configuration asks for. */
    RouteFilePolicy routeFilePolicy() {
        return new RouteFilePolicy(java.util.Set.copyOf(allowedComponents), fileDirectories);
    }

    /** When a job fires: every {@code every} (first after {@code startAfter}), or on a Quartz {@code cron}. */
    public record Schedule(Duration every, Duration startAfter, String cron) {
    }

    /** A batch manifest run on a schedule; each run gets the id {@code <name>-<UTC time>}. */
    public record Job(String name, Path manifestPath, BatchManifest manifest, Schedule schedule) {
        /** The in-process lock key: one run at a time per target table. */
        public String targetKey() {
            return manifest.sink().connectionRef() + ":" + manifest.sink().table();
        }
    }

    /**
     * A directory of manifests ({@code dpone discover}'s output, or any directory of {@code *.batch.yaml}) run as one
     * fleet on a schedule, at most {@code parallel} tables at a time; each run gets the id {@code <name>-<UTC time>}
     * and its report {@code <state_dir>/fleet/<run id>/fleet_run.json}. {@code manifests} are the ones validated when
     * the configuration was loaded; each run reads the directory again. A manifest without its own {@code retry:} runs
 * under {@code retry} (serve's), like a job's.
     */
    public record Fleet(String name, Path directory, List<BatchManifest> manifests, int parallel, Schedule schedule,
                        io.dpone.retry.RetrySettings retry) {
        public Fleet {
            manifests = List.copyOf(manifests);
        }
    }

    /**
     * A CDC stream ticked periodically through the {@code cdc_runtime_tick} route.
     *
     * @param approvedBundle {@code approved_bundle} (live only): the promotion bundle directory whose approval every
     *                       tick requires, as {@code cdc-runtime-run --require-approved-bundle}; null when none
     */
    public record CdcStream(String name, Schedule schedule, CdcRunOptions options, Materialize materialize,
                            Verify verify, Path approvedBundle) {
        public CdcStream(String name, Schedule schedule, CdcRunOptions options) {
            this(name, schedule, options, null, null);
        }

        public CdcStream(String name, Schedule schedule, CdcRunOptions options, Materialize materialize,
                         Verify verify) {
            this(name, schedule, options, materialize, verify, null);
        }

        public CdcStream(String name, Schedule schedule, CdcRunOptions options, Materialize materialize) {
            this(name, schedule, options, materialize, null);
        }

        public String targetKey() {
            return "cdc:" + String.join(",", options.targetDatasets());
        }
    }

    /**
     * {@code cdc_streams[].materialize}: after a tick that applied changes (and after the first tick of the pod, or
     * one after a failed materialization), the stream's log is materialized into {@code targetDataset}.
     */
    public record Materialize(String targetDataset, io.dpone.cdc.clickhouse.CdcMaterializer.Mode mode,
                              io.dpone.cdc.clickhouse.CdcMaterializer.DeleteMode deleteMode,
                              Duration tombstoneRetention, java.util.Map<String, String> tableTargets,
                              String targetTemplate) {
        /**
         * @param targetDataset a single-table stream's serving target (null for a multi-table stream)
         * @param tableTargets  a multi-table stream's serving target per table ({@code schema.table} to
         *                      {@code db.table}, {@code tables[].materialize_target}, in the stream's order); empty for
         *                      a single-table stream
         * @param targetTemplate a stream choosing its tables by patterns: each matched table's serving target,
         *                      {@code DB.NAME} with {@code {schema}} and {@code {table}} replaced (null otherwise)
         */
        public Materialize {
            tableTargets = tableTargets == null ? java.util.Map.of()
                : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(tableTargets));
        }

        public Materialize(String targetDataset, io.dpone.cdc.clickhouse.CdcMaterializer.Mode mode,
                           io.dpone.cdc.clickhouse.CdcMaterializer.DeleteMode deleteMode, Duration tombstoneRetention,
                           java.util.Map<String, String> tableTargets) {
            this(targetDataset, mode, deleteMode, tombstoneRetention, tableTargets, null);
        }

        public Materialize(String targetDataset, io.dpone.cdc.clickhouse.CdcMaterializer.Mode mode,
                           io.dpone.cdc.clickhouse.CdcMaterializer.DeleteMode deleteMode, Duration tombstoneRetention) {
            this(targetDataset, mode, deleteMode, tombstoneRetention, null);
        }

        /** The serving target(s), for messages: the one target, or every table's, comma-separated. */
        public String targets() {
            return targetTemplate != null ? targetTemplate
                : tableTargets.isEmpty() ? targetDataset : String.join(", ", tableTargets.values());
        }
    }

    /**
     * {@code cdc_streams[].verify}: after a tick, when {@code every} has passed since the last verification,
     * {@code dpone ops cdc-verify} of the materialized target against the source ({@code repair}: re-snapshot the
     * differing buckets); {@code outputDir} null writes no report files.
     */
    public record Verify(Duration every, int buckets, boolean repair, Path outputDir) {
    }

    /** A certification run on demand (JMX operation, or {@code direct:dpone_certify_<name>}). */
    public record CertificationSpec(String name, Path manifestPath, BatchManifest manifest, String scenario,
                                    Path output) {
    }
}
