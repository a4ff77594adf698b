package io.dpone.serve;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.cdc.runtime.CdcMode;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.certify.Scenario;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.manifest.ValuePolicies;
import io.dpone.manifest.BatchManifest;
import io.dpone.manifest.ManifestLoader;
import io.dpone.manifest.JsonSchemaCheck;
import io.dpone.manifest.ShortDuration;
import io.dpone.manifest.YamlMappingFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a {@code dpone serve} configuration the way {@link ManifestLoader} reads a manifest: YAML syntax (line and
 * column), then the published JSON Schema ({@code schema/serve-config.schema.json}: unknown keys, missing and wrong
 * values, each with its path, line and column), then what a schema cannot say (names unique across jobs, streams and
 * certifications; cron expressions; each job's manifest; each CDC stream's options), all collected before anything
 * starts. Relative paths resolve against the configuration file's directory.
 */
public final class ServeConfigLoader {
    public static final Pattern NAME = Pattern.compile("^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$");
    public static final String SCHEMA = "/schema/serve-config.schema.json";
    private static final YamlMappingFile FILE = new YamlMappingFile("serve configuration",
        BlockerCode.SERVE_CONFIG_UNREADABLE, BlockerCode.SERVE_CONFIG_INVALID, BlockerCode.SERVE_CONFIG_INVALID,
        BlockerCode.SERVE_CONFIG_TOO_LARGE, YamlMappingFile.MAX_BYTES);
    private static final JsonSchemaCheck CHECK = new JsonSchemaCheck(SCHEMA,
        JsonSchemaCheck.Codes.all(BlockerCode.SERVE_CONFIG_INVALID));

    private final Path base;
    private final YamlMappingFile.Document document;
    private final List<Blocker> blockers = new ArrayList<>();

    private ServeConfigLoader(Path base, YamlMappingFile.Document document) {
        this.base = base;
        this.document = document;
    }

    /** Loads and validates; throws {@link DponeException} with every blocker found. */
    public static ServeConfig load(Path file) {
        Path abs = file.toAbsolutePath().normalize();
        YamlMappingFile.Document document = FILE.read(abs);
        ServeConfigLoader loader = new ServeConfigLoader(abs.getParent(), document);
        loader.blockers.addAll(CHECK.validate(document.root(), Set.of(), document::locations));
        ServeConfig config = loader.bind(document.root());
        if (!loader.blockers.isEmpty()) {
            throw new DponeException(loader.blockers);
        }
        return config;
    }

    /** Binds the document; the schema has reported its shape, so values of the wrong shape read as absent here. */
    private ServeConfig bind(JsonNode root) {
        JsonNode http = root.path("http");
        int port = http.path("port").canConvertToInt() ? http.path("port").asInt() : ServeConfig.DEFAULT_HTTP_PORT;
        String host = http.path("host").isTextual() ? http.path("host").asText() : ServeConfig.DEFAULT_HTTP_HOST;
        Duration idle = bounded(http.get("idle_timeout"), ManagementHttpGuard.DEFAULT_IDLE_TIMEOUT,
            "http.idle_timeout");
        Duration request = bounded(http.get("request_timeout"), ManagementHttpGuard.DEFAULT_REQUEST_TIMEOUT,
            "http.request_timeout");
        Path state = path(root.get("state_dir"));
        JsonNode routes = root.path("routes");
        Path routesDir = path(routes.get("directory"));
        boolean reload = routes.path("reload").asBoolean(false);
        List<String> components = new ArrayList<>();
        items(routes.get("allowed_components"), (n, p) -> components.add(n.asText()), "routes.allowed_components");
        List<Path> fileDirs = new ArrayList<>();
        items(routes.get("file_directories"), (n, p) -> fileDirs.add(path(n)), "routes.file_directories");
        Duration reloadEvery = duration(routes.get("reload_interval"), Duration.ofSeconds(5));
        Duration timeout = duration(root.path("shutdown").get("timeout"), Duration.ofSeconds(30));
        List<String> readiness = new ArrayList<>();
        items(root.path("readiness").get("connections"), (n, p) -> readiness.add(n.asText()), "");
        Duration probeTimeout = duration(root.path("readiness").get("probe_timeout"), ConnectionProbes.DEADLINE);
        Set<String> names = new HashSet<>();
        java.util.Optional<Blocker> badRetry = io.dpone.manifest.ManifestOptions.retryBlocker(root.get("retry"),
            "retry");
        badRetry.ifPresent(b -> invalid(b.subject(), b.message()));
        io.dpone.retry.RetrySettings retry = badRetry.isPresent() ? null
            : io.dpone.manifest.RetryBlock.parse(root.get("retry"));
        List<ServeConfig.Job> jobs = new ArrayList<>();
        items(root.get("jobs"), (n, p) -> jobs.add(job(n, p, names, retry)), "jobs");
        List<ServeConfig.Fleet> fleets = new ArrayList<>();
        items(root.get("fleets"), (n, p) -> fleets.add(fleet(n, p, names, retry)), "fleets");
        List<ServeConfig.CdcStream> streams = new ArrayList<>();
        items(root.get("cdc_streams"), (n, p) -> streams.add(stream(n, p, names, retry)), "cdc_streams");
        List<ServeConfig.CertificationSpec> certs = new ArrayList<>();
        items(root.get("certifications"), (n, p) -> certs.add(certification(n, p, names)), "certifications");
        if (jobs.isEmpty() && fleets.isEmpty() && streams.isEmpty() && certs.isEmpty()) {
            invalid("jobs", "configure at least one job, fleet, CDC stream or certification");
        }
        Map<String, String> camel = new LinkedHashMap<>();
        JsonNode props = root.path("camel_properties");
        props.fields().forEachRemaining(e -> {
            if (e.getKey().startsWith("camel.") && e.getValue().isValueNode()) {
                camel.put(e.getKey(), e.getValue().asText());
            }
        });
        return new ServeConfig(port, host, idle, request, state, routesDir, reload, components, fileDirs, reloadEvery,
            timeout, readiness, probeTimeout, jobs, fleets, streams, certs, camel, lineage(root.get("lineage")));
    }

    /** {@code lineage:}: its shape (exactly one of url and file) is the schema's. */
    private io.dpone.lineage.LineageConfig lineage(JsonNode n) {
        if (n == null || !n.isObject()) {
            return null;
        }
        java.net.URI url = null;
        if (n.path("url").isTextual()) {
            try {
                url = new java.net.URI(n.get("url").asText());
            } catch (java.net.URISyntaxException e) {
                invalid("lineage.url", "not a URL");
            }
        }
        return new io.dpone.lineage.LineageConfig(url, n.path("endpoint").asText(null),
            n.path("api_key_env").asText(null), path(n.get("file")), n.path("namespace").asText(null),
            n.has("timeout") ? duration(n.get("timeout"), io.dpone.lineage.LineageConfig.DEFAULT_TIMEOUT) : null);
    }

    /** A job; its manifest runs under serve's {@code retry:} budget unless it states its own. */
    private ServeConfig.Job job(JsonNode n, String p, Set<String> names, io.dpone.retry.RetrySettings retry) {
        String name = uniqueName(n, p, names);
        Path manifestPath = path(n.get("manifest"));
        BatchManifest manifest = manifest(manifestPath, p + ".manifest");
        return new ServeConfig.Job(name, manifestPath, manifest == null ? null : manifest.withRetryFallback(retry),
            schedule(n.get("schedule"), p + ".schedule"));
    }

    /**
     * A fleet: its directory must hold manifests ({@code manifests/*.batch.yaml} or {@code *.batch.yaml}), each of
     * which loads, so a typo shows at start-up with the manifest's file name, not at the first run.
     */
    private ServeConfig.Fleet fleet(JsonNode n, String p, Set<String> names, io.dpone.retry.RetrySettings retry) {
        String name = uniqueName(n, p, names);
        Path dir = path(n.get("directory"));
        List<BatchManifest> manifests = new ArrayList<>();
        if (dir != null && !Files.isDirectory(dir)) {
            invalid(p + ".directory", "not a directory");
        } else if (dir != null) {
            List<Path> files;
            try {
                files = io.dpone.fleet.FleetRunner.manifests(dir);
            } catch (DponeException e) {
                files = List.of();
                invalid(p + ".directory", "cannot be listed");
            }
            if (files.isEmpty()) {
                invalid(p + ".directory", "holds no *" + io.dpone.fleet.FleetRunner.MANIFEST_SUFFIX
                    + " manifest (nor a manifests/ directory of them)");
            }
            for (Path f : files) {
                BatchManifest m = manifest(f, p + ".directory[" + f.getFileName() + "]");
                if (m != null) {
                    manifests.add(m);
                }
            }
        }
        int parallel = n.path("parallel").asInt(io.dpone.fleet.FleetRunner.defaultParallel());
        return new ServeConfig.Fleet(name, dir, manifests, parallel, schedule(n.get("schedule"), p + ".schedule"),
            retry);
    }

    /** A CDC stream; its ticks run under its own {@code retry:} budget, else serve's, else the default. */
    private ServeConfig.CdcStream stream(JsonNode n, String p, Set<String> names,
                                         io.dpone.retry.RetrySettings serveRetry) {
        String name = uniqueName(n, p, names);
        ServeConfig.Schedule schedule = schedule(n.get("schedule"), p + ".schedule");
        List<String> keys = new ArrayList<>();
        items(n.get("unique_keys"), (k, kp) -> keys.add(k.asText()), p + ".unique_keys");
        CdcMode mode = "live".equals(n.path("mode").asText("local")) ? CdcMode.live : CdcMode.local;
        List<CdcRunOptions.Table> tables = new ArrayList<>();
        List<String> servingTargets = new ArrayList<>(); // tables[].materialize_target, null where absent
        items(n.get("tables"), (t, tp) -> {
            List<String> tableKeys = new ArrayList<>();
            items(t.get("unique_keys"), (k, kp) -> tableKeys.add(k.asText()), tp + ".unique_keys");
            tables.add(new CdcRunOptions.Table(t.path("source_schema").asText(null), t.path("source_table").asText(null),
                t.path("target_dataset").asText(null), tableKeys));
            servingTargets.add(t.path("materialize_target").asText(null));
        }, p + ".tables");
        // a multi-table stream choosing its tables by patterns (include, exclude, target_template), not tables
        CdcRunOptions.TableSelection selection = null;
        if (n.has("include") || n.has("exclude") || n.has("target_template")) {
            List<String> include = new ArrayList<>();
            List<String> exclude = new ArrayList<>();
            items(n.get("include"), (k, kp) -> include.add(k.asText()), p + ".include");
            items(n.get("exclude"), (k, kp) -> exclude.add(k.asText()), p + ".exclude");
            if (n.has("tables")) {
                invalid(p + ".include", "tables names the stream's tables; include/exclude choose them by patterns: "
                    + "use one or the other");
            }
            if (!n.has("target_template")) {
                invalid(p + ".target_template", "required with include (each matched table's CDC log, e.g. "
                    + "analytics." + io.dpone.cdc.runtime.TableSelections.DEFAULT_NAME + ")");
            }
            selection = new CdcRunOptions.TableSelection(include, exclude, n.path("target_template").asText(""));
        }
        CdcRunOptions options = CdcRunOptions.builder(mode)
            .systems(n.path("source").asText(null), n.path("sink").asText(null))
            .backend(n.path("backend").asText(null)).pipelineName(n.path("pipeline_name").asText(null))
            .sourceTable(n.path("source_schema").asText(null), n.path("source_table").asText(null))
            .targetDataset(n.path("target_dataset").asText(null)).uniqueKeys(keys)
            .eventsJson(path(n.get("events_json"))).checkpointJson(path(n.get("checkpoint_json")))
            .outputDir(path(n.get("output_dir")))
            .connections(n.path("source_connection_id").asText(null), n.path("sink_connection_id").asText(null))
            .captureInstance(n.path("capture_instance").asText(null))
            .maxEvents(n.has("max_events") ? n.get("max_events").asInt() : null)
            .valuePolicies(ValuePolicies.of(n.get("value_policy"))).tables(tables).selection(selection)
            .retry(streamRetry(n.get("retry"), p + ".retry", serveRetry))
            .allowCaptureInstanceDdl(n.path("allow_capture_instance_ddl").asBoolean(false)).build();
        for (Blocker b : options.validate()) {
            invalid(p + "." + b.subject().replaceFirst("^--", "").replace('-', '_').replaceFirst("^(in|ex)clude_table",
                "$1clude"), b.message());
        }
        if (options.multiTable() && n.has("verify")) {
            invalid(p + ".verify", "a multi-table stream (tables) does not verify yet; run cdc-verify per table");
        }
        ServeConfig.Materialize materialize = null;
        JsonNode m = n.get("materialize");
        Map<String, String> tableTargets = servingTargets(tables, servingTargets, m != null && m.isObject(),
            m != null && m.has("target_dataset"), p);
        if (m != null && m.isObject()) {
            if (options.sinkConnectionId() == null) {
                invalid(p + ".materialize", "needs the stream's sink_connection_id (the ClickHouse log)");
            }
            if (!options.multiTable() && !m.has("target_dataset")) {
                invalid(p + ".materialize.target_dataset", "required (the serving target, db.table)");
            }
            java.time.Duration retention = java.time.Duration.ofDays(7);
            String r = m.path("tombstone_retention").asText("P7D");
            try {
                retention = "none".equals(r) ? null : java.time.Duration.parse(r);
            } catch (java.time.format.DateTimeParseException e) {
                invalid(p + ".materialize.tombstone_retention", "an ISO-8601 duration (P7D, PT12H) or none");
            }
            String servingTemplate = m.path("target_template").asText(null);
            if (selection != null && servingTemplate == null) {
                invalid(p + ".materialize.target_template", "required when a stream choosing its tables by patterns "
                    + "materializes: each matched table's serving target, DB.NAME with {schema} and {table}");
            } else if (selection == null && servingTemplate != null) {
                invalid(p + ".materialize.target_template", "is for a stream choosing its tables by patterns "
                    + "(include); name the serving targets with target_dataset or tables[].materialize_target");
            } else if (servingTemplate != null) {
                List<Blocker> problems = new ArrayList<>();
                io.dpone.cdc.runtime.TableSelections.validateTemplate(servingTemplate, "materialize.target_template",
                    problems);
                problems.forEach(b -> invalid(p + ".materialize.target_template", b.message()));
                if (servingTemplate.equals(selection.targetTemplate())) {
                    invalid(p + ".materialize.target_template", "is the stream's target_template: the serving "
                        + "targets must be other tables than the CDC logs");
                }
                if (m.has("target_dataset")) {
                    invalid(p + ".materialize.target_dataset", "a stream choosing its tables by patterns names its "
                        + "serving targets with materialize.target_template");
                }
            }
            materialize = new ServeConfig.Materialize(m.path("target_dataset").asText(null),
                "rebuild".equals(m.path("mode").asText("incremental"))
                    ? io.dpone.cdc.clickhouse.CdcMaterializer.Mode.rebuild
                    : io.dpone.cdc.clickhouse.CdcMaterializer.Mode.incremental,
                "tombstone".equals(m.path("delete_mode").asText("exclude_deleted"))
                    ? io.dpone.cdc.clickhouse.CdcMaterializer.DeleteMode.tombstone
                    : io.dpone.cdc.clickhouse.CdcMaterializer.DeleteMode.exclude_deleted, retention, tableTargets,
                servingTemplate);
        }
        ServeConfig.Verify verify = null;
        JsonNode v = n.get("verify");
        if (v != null && v.isObject()) {
            if (materialize == null || mode != CdcMode.live) {
                invalid(p + ".verify", "needs a live stream (source_connection_id) with materialize");
            }
            java.time.Duration every = null;
            try {
                every = java.time.Duration.parse(v.path("every").asText(""));
            } catch (java.time.format.DateTimeParseException e) {
                invalid(p + ".verify.every", "an ISO-8601 duration (PT1H, PT10M)");
            }
            int buckets = v.path("buckets").asInt(256);
            if (buckets < 1 || buckets > 65536 || Integer.bitCount(buckets) != 1) {
                invalid(p + ".verify.buckets", "a power of two from 1 to 65536");
            }
            verify = new ServeConfig.Verify(every, buckets, v.path("repair").asBoolean(false), path(v.get("output_dir")));
        }
        Path approvedBundle = path(n.get("approved_bundle"));
        if (approvedBundle != null && mode != CdcMode.live) {
            invalid(p + ".approved_bundle", "needs a live stream (a promotion bundle checks a live source)");
        }
        return new ServeConfig.CdcStream(name, schedule, options, materialize, verify, approvedBundle);
    }

    /**
     * A stream's {@code retry:} block ({@code at} its path, named in the error when its backoff cannot work), else
     * {@code fallback} (serve's {@code retry:}; null: the default).
     */
    private io.dpone.retry.RetrySettings streamRetry(JsonNode block, String at,
                                                     io.dpone.retry.RetrySettings fallback) {
        java.util.Optional<Blocker> bad = io.dpone.manifest.ManifestOptions.retryBlocker(block, at);
        bad.ifPresent(b -> invalid(b.subject(), b.message()));
        io.dpone.retry.RetrySettings own = bad.isPresent() ? null : io.dpone.manifest.RetryBlock.parse(block);
        return own != null ? own : fallback;
    }

    /**
     * A multi-table stream's serving targets ({@code tables[i].materialize_target}, {@code schema.table} to
     * {@code db.table}): with {@code materialize} every table names one, each a {@code db.table} of identifiers, none
     * twice and none a CDC log; {@code materialize.target_dataset} is refused (it names one target); without
     * {@code materialize} none may be set.
     */
    private Map<String, String> servingTargets(List<CdcRunOptions.Table> tables, List<String> targets,
                                               boolean materializes, boolean singleTarget, String p) {
        Map<String, String> out = new LinkedHashMap<>();
        if (tables.isEmpty()) {
            return out;
        }
        if (materializes && singleTarget) {
            invalid(p + ".materialize.target_dataset", "a multi-table stream names each table's serving target in "
                + "tables[].materialize_target instead");
        }
        Set<String> logs = new HashSet<>(tables.stream().map(CdcRunOptions.Table::targetDataset).toList());
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < tables.size(); i++) {
            String at = p + ".tables[" + i + "].materialize_target";
            String target = targets.get(i);
            if (!materializes) {
                if (target != null) {
                    invalid(at, "needs the stream's materialize block (mode, delete_mode, tombstone_retention)");
                }
                continue;
            }
            if (target == null) {
                invalid(at, "required when the stream materializes (the table's serving target, db.table)");
                continue;
            }
            String[] parts = target.split("\\.", -1);
            if (parts.length != 2 || !CdcRunOptions.IDENTIFIER.matcher(parts[0]).matches()
                || !CdcRunOptions.IDENTIFIER.matcher(parts[1]).matches()) {
                invalid(at, "must be db.table, both parts identifiers");
            } else if (logs.contains(target)) {
                invalid(at, "is a CDC log of the stream; the serving target must be another table");
            } else if (!seen.add(target)) {
                invalid(at, "names a serving target another table of the stream already uses");
            }
            CdcRunOptions.Table t = tables.get(i);
            out.put(t.sourceSchema() + "." + t.sourceTable(), target);
        }
        return out;
    }

    private ServeConfig.CertificationSpec certification(JsonNode n, String p, Set<String> names) {
        String name = uniqueName(n, p, names);
        Path manifestPath = path(n.get("manifest"));
        BatchManifest manifest = manifest(manifestPath, p + ".manifest");
        String scenario = n.path("scenario").isTextual() ? n.get("scenario").asText() : null;
        if (manifest != null && scenario != null) {
            try {
                Scenario.resolve(manifest, scenario);
            } catch (DponeException e) {
                e.blockers().forEach(b -> blockers.add(new Blocker(b.code(), p + ".scenario", b.message(), b.details())));
            }
        }
        return new ServeConfig.CertificationSpec(name, manifestPath, manifest, scenario, path(n.get("output")));
    }

    /** A schedule's values; its shape (exactly one of every and cron, durations) is the schema's. */
    private ServeConfig.Schedule schedule(JsonNode n, String p) {
        if (n == null || !n.isObject()) {
            return new ServeConfig.Schedule(Duration.ofMinutes(1), Duration.ZERO, null);
        }
        String cron = n.path("cron").isTextual() ? n.get("cron").asText() : null;
        if (cron != null && !cron.isEmpty() && !org.quartz.CronExpression.isValidExpression(cron)) {
            invalid(p + ".cron", "not a Quartz cron expression (seconds minutes hours day-of-month month day-of-week)");
        }
        Duration every = n.has("every") ? duration(n.get("every"), Duration.ofMinutes(1)) : null;
        if (every != null && every.toMillis() < 100) {
            invalid(p + ".every", "interval must be at least 100ms");
        }
        return new ServeConfig.Schedule(cron == null && every == null ? Duration.ofMinutes(1) : every,
            duration(n.get("start_after"), Duration.ofSeconds(1)), cron);
    }

    private BatchManifest manifest(Path file, String p) {
        if (file == null) {
            return null;
        }
        try {
            return ManifestLoader.load(file);
        } catch (DponeException e) {
            e.blockers().forEach(b -> blockers.add(new Blocker(b.code(), p + ":" + b.subject(), b.message(), b.details())));
            return null;
        }
    }

    private String uniqueName(JsonNode n, String p, Set<String> names) {
        JsonNode node = n.path("name");
        String name = node.isTextual() && NAME.matcher(node.asText()).matches() ? node.asText() : null;
        if (name != null && !names.add(name)) {
            invalid(p + ".name", "name '" + name + "' is used twice (job, fleet, CDC stream and certification names are unique)");
        }
        return name;
    }

    private interface Item {
        void accept(JsonNode node, String path);
    }

    private static void items(JsonNode list, Item item, String p) {
        if (list != null && list.isArray()) {
            for (int i = 0; i < list.size(); i++) {
                item.accept(list.get(i), p + "[" + i + "]");
            }
        }
    }

    private Path path(JsonNode n) {
        return n != null && n.isTextual() && !n.asText().isEmpty() ? base.resolve(n.asText()).normalize() : null;
    }

    private static Duration duration(JsonNode n, Duration fallback) {
        return n != null && n.isTextual() ? ShortDuration.parse(n.asText()).orElse(fallback) : fallback;
    }

    /** A management-port timeout, {@link ManagementHttpGuard#MIN_TIMEOUT} to {@link ManagementHttpGuard#MAX_TIMEOUT}. */
    private Duration bounded(JsonNode n, Duration fallback, String p) {
        Duration d = duration(n, fallback);
        if (d.compareTo(ManagementHttpGuard.MIN_TIMEOUT) < 0 || d.compareTo(ManagementHttpGuard.MAX_TIMEOUT) > 0) {
            invalid(p, "must be between 100ms and 1h, got " + n.asText());
            return fallback;
        }
        return d;
    }

    private void invalid(String p, String message) {
        Blocker b = Blocker.of(BlockerCode.SERVE_CONFIG_INVALID, p, message);
        blockers.add(document.locations().find(p).map(l -> Blocker.of(BlockerCode.SERVE_CONFIG_INVALID, p, message,
            Map.<String, Object>of("line", l.line(), "column", l.column()))).orElse(b));
    }
}
