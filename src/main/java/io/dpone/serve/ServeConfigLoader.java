package io.dpone.serve;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.cdc.runtime.CdcMode;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.certify.Scenario;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.manifest.BatchManifest;
import io.dpone.manifest.ManifestLoader;
import io.dpone.manifest.YamlMappingFile;
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
 * column), unknown keys, missing and wrong values, and every job's manifest, all collected with their config paths
 * before anything starts. Relative paths resolve against the configuration file's directory.
 */
public final class ServeConfigLoader {
    public static final Pattern NAME = Pattern.compile("^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$");
    private static final YamlMappingFile FILE = new YamlMappingFile("serve configuration",
        BlockerCode.SERVE_CONFIG_UNREADABLE, BlockerCode.SERVE_CONFIG_INVALID, BlockerCode.SERVE_CONFIG_INVALID);
    private static final Set<String> TOP = Set.of("http", "state_dir", "routes", "shutdown", "readiness", "jobs",
        "cdc_streams", "certifications", "camel_properties");

    private final Path base;
    private final List<Blocker> blockers = new ArrayList<>();

    private ServeConfigLoader(Path base) {
        this.base = base;
    }

    /** Loads and validates; throws {@link DponeException} with every blocker found. */
    public static ServeConfig load(Path file) {
        Path abs = file.toAbsolutePath().normalize();
        ServeConfigLoader loader = new ServeConfigLoader(abs.getParent());
        ServeConfig config = loader.bind(FILE.read(abs));
        if (!loader.blockers.isEmpty()) {
            throw new DponeException(loader.blockers);
        }
        return config;
    }

    private ServeConfig bind(JsonNode root) {
        keys(root, "", TOP);
        JsonNode http = root.path("http");
        keys(http, "http", Set.of("port"));
        int port = port(http.get("port"), "http.port");
        Path state = root.has("state_dir") ? path(root.get("state_dir"), "state_dir") : null;
        JsonNode routes = root.path("routes");
        keys(routes, "routes", Set.of("directory", "reload", "reload_interval"));
        Path routesDir = routes.has("directory") ? path(routes.get("directory"), "routes.directory") : null;
        boolean reload = bool(routes, "routes.reload", false);
        Duration reloadEvery = duration(routes.get("reload_interval"), "routes.reload_interval", Duration.ofSeconds(5));
        JsonNode shutdown = root.path("shutdown");
        keys(shutdown, "shutdown", Set.of("timeout"));
        Duration timeout = duration(shutdown.get("timeout"), "shutdown.timeout", Duration.ofSeconds(30));
        JsonNode ready = root.path("readiness");
        keys(ready, "readiness", Set.of("connections"));
        List<String> readiness = new ArrayList<>();
        each(ready.get("connections"), "readiness.connections", (n, p) -> readiness.add(text(n, p, NAME)));
        Set<String> names = new HashSet<>();
        List<ServeConfig.Job> jobs = new ArrayList<>();
        each(root.get("jobs"), "jobs", (n, p) -> jobs.add(job(n, p, names)));
        List<ServeConfig.CdcStream> streams = new ArrayList<>();
        each(root.get("cdc_streams"), "cdc_streams", (n, p) -> streams.add(stream(n, p, names)));
        List<ServeConfig.CertificationSpec> certs = new ArrayList<>();
        each(root.get("certifications"), "certifications", (n, p) -> certs.add(certification(n, p, names)));
        if (jobs.isEmpty() && streams.isEmpty() && certs.isEmpty()) {
            invalid("jobs", "configure at least one job, CDC stream or certification");
        }
        Map<String, String> camel = new LinkedHashMap<>();
        JsonNode props = root.get("camel_properties");
        if (props != null && !props.isObject()) {
            invalid("camel_properties", "must be a mapping of camel-main property names to values");
        } else if (props != null) {
            props.fields().forEachRemaining(e -> {
                if (!e.getKey().startsWith("camel.") || !e.getValue().isValueNode()) {
                    invalid("camel_properties." + e.getKey(), "must be a camel.* property with a scalar value");
                } else {
                    camel.put(e.getKey(), e.getValue().asText());
                }
            });
        }
        return new ServeConfig(port, state, routesDir, reload, reloadEvery, timeout, readiness, jobs, streams, certs,
            camel);
    }

    private ServeConfig.Job job(JsonNode n, String p, Set<String> names) {
        keys(n, p, Set.of("name", "manifest", "schedule"));
        String name = uniqueName(n, p, names);
        Path manifestPath = path(n.get("manifest"), p + ".manifest");
        return new ServeConfig.Job(name, manifestPath, manifest(manifestPath, p + ".manifest"),
            schedule(n.get("schedule"), p + ".schedule"));
    }

    private ServeConfig.CdcStream stream(JsonNode n, String p, Set<String> names) {
        keys(n, p, Set.of("name", "schedule", "source", "sink", "backend", "pipeline_name", "source_schema",
            "source_table", "target_dataset", "unique_keys", "events_json", "checkpoint_json", "output_dir"));
        String name = uniqueName(n, p, names);
        ServeConfig.Schedule schedule = schedule(n.get("schedule"), p + ".schedule");
        List<String> keys = new ArrayList<>();
        each(n.get("unique_keys"), p + ".unique_keys", (k, kp) -> keys.add(k.asText()));
        CdcRunOptions options = new CdcRunOptions(CdcMode.local, n.path("source").asText(null),
            n.path("sink").asText(null), n.path("backend").asText(null), n.path("pipeline_name").asText(null),
            n.path("source_schema").asText(null), n.path("source_table").asText(null),
            n.path("target_dataset").asText(null), keys, optionalPath(n, "events_json", p),
            optionalPath(n, "checkpoint_json", p), optionalPath(n, "output_dir", p), null, null, null);
        for (Blocker b : options.validate()) {
            invalid(p + "." + b.subject().replaceFirst("^--", "").replace('-', '_'), b.message());
        }
        return new ServeConfig.CdcStream(name, schedule, options);
    }

    private ServeConfig.CertificationSpec certification(JsonNode n, String p, Set<String> names) {
        keys(n, p, Set.of("name", "manifest", "scenario", "output"));
        String name = uniqueName(n, p, names);
        Path manifestPath = path(n.get("manifest"), p + ".manifest");
        BatchManifest manifest = manifest(manifestPath, p + ".manifest");
        String scenario = text(n.get("scenario"), p + ".scenario", null);
        if (manifest != null && scenario != null) {
            try {
                Scenario.resolve(manifest, scenario);
            } catch (DponeException e) {
                e.blockers().forEach(b -> blockers.add(new Blocker(b.code(), p + ".scenario", b.message(), b.details())));
            }
        }
        return new ServeConfig.CertificationSpec(name, manifestPath, manifest, scenario,
            path(n.get("output"), p + ".output"));
    }

    private ServeConfig.Schedule schedule(JsonNode n, String p) {
        if (n == null || !n.isObject()) {
            invalid(p, "schedule must be a mapping with 'every' (e.g. 60s) or 'cron' (Quartz, e.g. '0 * * * * ?')");
            return new ServeConfig.Schedule(Duration.ofMinutes(1), Duration.ZERO, null);
        }
        keys(n, p, Set.of("every", "start_after", "cron"));
        if (n.has("every") == n.has("cron")) {
            invalid(p, "give exactly one of 'every' and 'cron'");
        }
        String cron = n.has("cron") ? text(n.get("cron"), p + ".cron", null) : null;
        if (cron != null && !org.quartz.CronExpression.isValidExpression(cron)) {
            invalid(p + ".cron", "not a Quartz cron expression (seconds minutes hours day-of-month month day-of-week)");
        }
        Duration every = n.has("every") ? duration(n.get("every"), p + ".every", Duration.ofMinutes(1)) : null;
        if (every != null && every.toMillis() < 100) {
            invalid(p + ".every", "interval must be at least 100ms");
        }
        return new ServeConfig.Schedule(every, duration(n.get("start_after"), p + ".start_after", Duration.ofSeconds(1)),
            cron);
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
        String name = text(n.get("name"), p + ".name", NAME);
        if (name != null && !names.add(name)) {
            invalid(p + ".name", "name '" + name + "' is used twice (job, CDC stream and certification names are unique)");
        }
        return name;
    }

    private void keys(JsonNode node, String p, Set<String> allowed) {
        if (node == null || node.isMissingNode()) {
            return;
        }
        if (!node.isObject()) {
            invalid(p, "must be a mapping");
            return;
        }
        node.fieldNames().forEachRemaining(k -> {
            if (!allowed.contains(k)) {
                invalid(p.isEmpty() ? k : p + "." + k, "unknown key '" + k + "'");
            }
        });
    }

    private interface Item {
        void accept(JsonNode node, String path);
    }

    private void each(JsonNode list, String p, Item item) {
        if (list == null || list.isNull()) {
            return;
        }
        if (!list.isArray()) {
            invalid(p, "must be a list");
            return;
        }
        for (int i = 0; i < list.size(); i++) {
            item.accept(list.get(i), p + "[" + i + "]");
        }
    }

    private String text(JsonNode n, String p, Pattern pattern) {
        if (n == null || n.isNull()) {
            invalid(p, "required");
            return null;
        }
        if (!n.isTextual() || (pattern != null && !pattern.matcher(n.asText()).matches())) {
            invalid(p, pattern == null ? "must be text" : "must match " + pattern.pattern());
            return null;
        }
        return n.asText();
    }

    private Path path(JsonNode n, String p) {
        String t = text(n, p, null);
        return t == null ? null : base.resolve(t).normalize();
    }

    private Path optionalPath(JsonNode n, String key, String p) {
        return n.has(key) ? path(n.get(key), p + "." + key) : null;
    }

    private int port(JsonNode n, String p) {
        if (n == null) {
            return ServeConfig.DEFAULT_HTTP_PORT;
        }
        if (!n.isIntegralNumber() || !n.canConvertToInt() || n.asInt() < 1 || n.asInt() > 65535) {
            invalid(p, "must be an integer from 1 to 65535");
            return ServeConfig.DEFAULT_HTTP_PORT;
        }
        return n.asInt();
    }

    private boolean bool(JsonNode parent, String p, boolean fallback) {
        JsonNode n = parent.get(p.substring(p.lastIndexOf('.') + 1));
        if (n == null) {
            return fallback;
        }
        if (!n.isBoolean()) {
            invalid(p, "must be true or false");
            return fallback;
        }
        return n.asBoolean();
    }

    private Duration duration(JsonNode n, String p, Duration fallback) {
        if (n == null) {
            return fallback;
        }
        var parsed = n.isTextual() ? io.dpone.manifest.ShortDuration.parse(n.asText())
            : java.util.Optional.<Duration>empty();
        if (parsed.isEmpty()) {
            invalid(p, "must be a duration such as 500ms, 30s, 5m or 1h");
            return fallback;
        }
        return parsed.get();
    }

    private void invalid(String p, String message) {
        blockers.add(Blocker.of(BlockerCode.SERVE_CONFIG_INVALID, p, message));
    }
}
