package io.dpone.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/k8s and the Dockerfile cannot run here; this keeps them consistent with what serve actually does: every
 * YAML parses, probes hit the served health paths on the port the serve config listens on, the pod runs non-root,
 * every referenced ConfigMap/Secret/PVC exists, the serve config in the ConfigMap loads, and the grace period
 * outlasts the shutdown timeout.
 */
class ServeDeploymentTest {
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    static final List<JsonNode> DOCS = new ArrayList<>();

    @TempDir
    Path dir;

    @BeforeAll
    static void parseAll() throws Exception {
        try (Stream<Path> files = Files.list(Path.of("deploy/k8s"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                try (var it = YAML.readerFor(JsonNode.class).readValues(YAML.getFactory().createParser(f.toFile()))) {
                    while (it.hasNext()) {
                        JsonNode doc = (JsonNode) it.next();
                        assertTrue(doc.hasNonNull("apiVersion") && doc.hasNonNull("kind"), f + " lacks apiVersion/kind");
                        if (!doc.path("kind").asText().equals("Kustomization")) {
                            assertTrue(doc.path("metadata").hasNonNull("name"), f + " lacks metadata.name");
                        }
                        DOCS.add(doc);
                    }
                }
            }
        }
    }

    static JsonNode one(String kind, String name) {
        return DOCS.stream().filter(d -> d.path("kind").asText().equals(kind)
            && (name == null || d.path("metadata").path("name").asText().equals(name))).findFirst()
            .orElseThrow(() -> new AssertionError("no " + kind + " " + name));
    }

    static JsonNode container() {
        return one("Deployment", "dpone").path("spec").path("template").path("spec").path("containers").get(0);
    }

    @Test
    void kustomizationListsEveryFileButTheExampleSecretAndGeneratesTheServeConfig() throws Exception {
        Set<String> listed = new HashSet<>();
        JsonNode kustomization = one("Kustomization", null);
        kustomization.path("resources").forEach(r -> listed.add(r.asText()));
        try (Stream<Path> files = Files.list(Path.of("deploy/k8s"))) {
            Set<String> present = new HashSet<>(files.map(p -> p.getFileName().toString())
                .filter(n -> n.endsWith(".yaml") && !n.equals("kustomization.yaml")).toList());
            assertTrue(present.remove("secret.example.yaml"), "the Secret's shape is documented");
            assertEquals(present, listed, "kubectl apply -k never deploys the placeholder Secret");
        }
        JsonNode generated = kustomization.path("configMapGenerator").get(0);
        assertEquals("dpone-serve", generated.path("name").asText(), "a content-hashed name rolls the pod");
        for (JsonNode file : generated.path("files")) {
            assertTrue(Files.isRegularFile(Path.of("deploy/k8s").resolve(file.asText())), file.asText());
        }
    }

    @Test
    void probesHitTheServedHealthPathsOnTheServePort() throws Exception {
        ServeConfig serve = serveConfigFromConfigMap();
        JsonNode c = container();
        int port = -1;
        for (JsonNode p : c.path("ports")) {
            if (p.path("name").asText().equals("management")) {
                port = p.path("containerPort").asInt();
            }
        }
        assertEquals(serve.httpPort(), port, "the management containerPort is the serve http.port");
        assertEquals(ServeRuntime.HEALTH_LIVE, c.path("livenessProbe").path("httpGet").path("path").asText());
        assertEquals(ServeRuntime.HEALTH_READY, c.path("readinessProbe").path("httpGet").path("path").asText());
        assertEquals(ServeRuntime.HEALTH_LIVE, c.path("startupProbe").path("httpGet").path("path").asText());
        for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
            assertEquals("management", c.path(probe).path("httpGet").path("port").asText(), probe);
        }
        JsonNode svc = one("Service", "dpone");
        assertEquals("management", svc.path("spec").path("ports").get(0).path("targetPort").asText());
        assertEquals(String.valueOf(port), svc.path("metadata").path("annotations").path("prometheus.io/port").asText());
        assertEquals(ServeRuntime.METRICS, svc.path("metadata").path("annotations").path("prometheus.io/path").asText());
        JsonNode podLabels = one("Deployment", "dpone").path("spec").path("template").path("metadata").path("labels");
        svc.path("spec").path("selector").fields().forEachRemaining(e ->
            assertEquals(e.getValue().asText(), podLabels.path(e.getKey()).asText(), "service selector matches the pod"));
        long grace = one("Deployment", "dpone").path("spec").path("template").path("spec")
            .path("terminationGracePeriodSeconds").asLong();
        assertTrue(grace > serve.shutdownTimeout().toSeconds(), "SIGKILL must not come before the graceful stop");
    }

    @Test
    void podRunsNonRootWithTheReferencedConfigAndSecrets() {
        JsonNode deployment = one("Deployment", "dpone");
        JsonNode pod = deployment.path("spec").path("template").path("spec");
        assertEquals(1, deployment.path("spec").path("replicas").asInt(), "no cross-pod fence yet: one replica");
        assertEquals("Recreate", deployment.path("spec").path("strategy").path("type").asText());
        assertTrue(pod.path("securityContext").path("runAsNonRoot").asBoolean());
        assertTrue(pod.path("securityContext").path("runAsUser").asInt() > 0);
        JsonNode sc = container().path("securityContext");
        assertFalse(sc.path("allowPrivilegeEscalation").asBoolean(true));
        assertTrue(sc.path("readOnlyRootFilesystem").asBoolean());
        Set<String> generated = new HashSet<>();
        one("Kustomization", null).path("configMapGenerator").forEach(g -> generated.add(g.path("name").asText()));
        for (JsonNode v : pod.path("volumes")) {
            if (v.has("configMap")) {
                String name = v.path("configMap").path("name").asText();
                if (!generated.contains(name)) {
                    one("ConfigMap", name);
                }
            } else if (v.has("secret")) {
                one("Secret", v.path("secret").path("secretName").asText());
            } else if (v.has("persistentVolumeClaim")) {
                one("PersistentVolumeClaim", v.path("persistentVolumeClaim").path("claimName").asText());
            }
        }
        for (JsonNode e : container().path("env")) {
            JsonNode ref = e.path("valueFrom").path("secretKeyRef");
            if (!ref.isMissingNode()) {
                assertTrue(one("Secret", ref.path("name").asText()).path("stringData").has(ref.path("key").asText()),
                    "secret key " + ref.path("key").asText());
            }
        }
        List<String> args = new ArrayList<>();
        container().path("args").forEach(a -> args.add(a.asText()));
        String config = args.get(args.indexOf("--config") + 1);
        assertTrue(config.startsWith(mountOf("config") + "/"), "--config points into the serve ConfigMap mount");
        String contextFile = envValue("DPONE_RUNTIME_CONNECTION_CONTEXT");
        assertNotNull(contextFile);
        assertTrue(contextFile.startsWith(mountOf("connections") + "/"));
    }

    @Test
    void dockerfileRunsNonRootOnJre17AndExposesTheManagementPort() throws Exception {
        String docker = Files.readString(Path.of("Dockerfile"));
        // the bases are build arguments (a registry's Temurin by default, a local base with podman, see
        // dev/container/run-checks.sh); each stage takes its own
        assertTrue(docker.contains("\nARG BUILD_BASE=eclipse-temurin:17-jdk\n")
            && docker.contains("\nFROM ${BUILD_BASE} AS build\n"), "the build stage's base is an argument");
        assertTrue(docker.contains("\nARG RUNTIME_BASE=eclipse-temurin:17-jre\n")
            && docker.contains("\nFROM ${RUNTIME_BASE}\n"), "the run stage's base is an argument");
        assertTrue(docker.indexOf("ARG RUNTIME_BASE") < docker.indexOf("\nFROM "), "ARGs before the first FROM");
        // the entrypoint is a sh launcher whose exec makes java PID 1 (SIGTERM reaches the shutdown hook)
        assertTrue(docker.contains("'exec java $JAVA_OPTS -cp \"/opt/dpone/dpone.jar:/opt/dpone/lib/*\" "
            + "io.dpone.cli.DponeCli \"$@\"'") && docker.contains("> /usr/local/bin/dpone")
            && docker.contains("\nENTRYPOINT [\"/usr/local/bin/dpone\"]\n"), "the launcher is the entrypoint");
        assertTrue(docker.contains("./mvnw -q -B package"));
        assertTrue(docker.matches("(?s).*\\nUSER 10001:10001\\n.*"));
        assertTrue(docker.contains("EXPOSE 8080 9010"));
        assertEquals(one("Deployment", "dpone").path("spec").path("template").path("spec").path("securityContext")
            .path("runAsUser").asInt(), 10001);
    }

    private static String envValue(String name) {
        for (JsonNode e : container().path("env")) {
            if (e.path("name").asText().equals(name)) {
                return e.path("value").asText();
            }
        }
        return null;
    }

    private static String mountOf(String volume) {
        for (JsonNode m : container().path("volumeMounts")) {
            if (m.path("name").asText().equals(volume)) {
                return m.path("mountPath").asText();
            }
        }
        throw new AssertionError("no mount of " + volume);
    }

    /** The generated ConfigMap's files, as the pod sees them in one directory. */
    private ServeConfig serveConfigFromConfigMap() throws Exception {
        for (JsonNode file : one("Kustomization", null).path("configMapGenerator").get(0).path("files")) {
            Path source = Path.of("deploy/k8s").resolve(file.asText());
            Files.copy(source, dir.resolve(source.getFileName()));
        }
        return ServeConfigLoader.load(dir.resolve("serve.yaml"));
    }

    @Test
    void theImageCarriesTheEngineAndAHealthCheckOnWhatServeServes() throws Exception {
        String docker = Files.readString(Path.of("Dockerfile"));
        assertTrue(docker.contains("io.dpone.clickhouse.chdb.ChdbInstaller /out/chdb"), "the engine is fetched");
        io.dpone.clickhouse.chdb.ChdbInstaller.class.getMethod("main", String[].class);
        assertTrue(docker.contains("COPY --from=build /out/ /opt/dpone/")
            && docker.contains("DPONE_CHDB_LIBRARY=/opt/dpone/chdb/libchdb.so"), "the engine is where the env says");
        assertTrue(docker.contains("HEALTHCHECK") && docker.contains("/dev/tcp/127.0.0.1/"
            + ServeConfig.DEFAULT_HTTP_PORT) && docker.contains("GET " + ServeRuntime.HEALTH_LIVE + " "),
            "the health check asks the liveness path on the default management port");
        assertTrue(docker.contains("io.dpone.cli.DponeCli"));
        assertTrue(docker.contains("cp target/jolokia/jolokia-agent.jar /out/jolokia/"), "the image carries Jolokia");
        assertFalse(Files.readString(Path.of(".dockerignore")).lines().anyMatch(l -> l.trim().equals("examples/")),
            "the examples are in the build context");
    }

    @Test
    void everyExamplePathTheImageAndComposeNameExistsAndItsServeConfigsLoad() throws Exception {
        String text = Files.readString(Path.of("Dockerfile")) + Files.readString(Path.of("docker-compose.yml"))
            + Files.readString(Path.of("README.md")) + Files.readString(Path.of("docs/operations.md"));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("/opt/dpone/examples/([\\w./-]+\\.yaml)")
            .matcher(text);
        Set<String> seen = new HashSet<>();
        while (m.find()) {
            seen.add(m.group(1));
            assertTrue(Files.isRegularFile(Path.of("examples").resolve(m.group(1))), m.group(1));
        }
        assertTrue(seen.contains("serve/embedded-serve.yaml") && seen.contains("serve/compose-serve.yaml"), seen.toString());
        for (String serve : List.of("serve/embedded-serve.yaml", "serve/compose-serve.yaml")) {
            assertFalse(ServeConfigLoader.load(Path.of("examples").resolve(serve)).jobs().isEmpty(), serve);
        }
    }

    @Test
    void composeStartsDponeOnlyOnceEveryServerItUsesIsReady() throws Exception {
        JsonNode compose = YAML.readTree(Path.of("docker-compose.yml").toFile());
        JsonNode dpone = compose.path("services").path("dpone");
        assertEquals("dpone:0.1.0", dpone.path("image").asText());
        JsonNode deps = dpone.path("depends_on");
        for (String server : List.of("ch1", "ch2")) {
            assertEquals("service_healthy", deps.path(server).path("condition").asText(), server);
        }
        for (String init : List.of("mssql-init", "minio-init")) {
            assertEquals("service_completed_successfully", deps.path(init).path("condition").asText(), init);
        }
        assertTrue(dpone.path("environment").path("DPONE_RUNTIME_CONNECTION_CONTEXT").asText()
            .endsWith("examples/connections/compose-network.connections.yaml"));
        assertTrue(Files.readString(Path.of("README.md")).contains("docker compose up -d --wait"));
    }

    @Test
    void theRoutesDirectoryAndTheStateComeFromTheirVolumes() throws Exception {
        ServeConfig serve = serveConfigFromConfigMap();
        assertEquals(Path.of(mountOf("routes")), serve.routesDirectory(), "serve loads routes from the mounted ConfigMap");
        assertEquals("dpone-routes", volume("routes").path("configMap").path("name").asText());
        assertFalse(one("ConfigMap", "dpone-routes").path("data").isEmpty(), "the routes ConfigMap holds route files");
        for (JsonNode route : one("ConfigMap", "dpone-routes").path("data")) {
            JsonNode parsed = YAML.readTree(route.asText());
            assertTrue(parsed.isArray() && parsed.get(0).path("route").hasNonNull("id"), "a YAML DSL route file");
        }
        assertTrue(serve.stateDir().startsWith(Path.of(mountOf("state"))), "the state survives the pod");
        assertEquals("dpone-state", volume("state").path("persistentVolumeClaim").path("claimName").asText());
        assertTrue(volume("connections").path("secret").path("secretName").asText().equals("dpone-connections"),
            "the connection context comes from the Secret");
    }

    @Test
    void resourcesLeaveRoomForTheEngineBesideTheHeap() {
        JsonNode resources = container().path("resources");
        long request = bytes(resources.path("requests").path("memory").asText());
        long limit = bytes(resources.path("limits").path("memory").asText());
        assertTrue(resources.path("requests").hasNonNull("cpu"), "a CPU request schedules the pod");
        assertTrue(request > 0 && request <= limit, "memory request within the limit");
        java.util.regex.Matcher xmx = java.util.regex.Pattern.compile("-Xmx(\\d+)([kmgKMG])")
            .matcher(envValue("JAVA_OPTS"));
        assertTrue(xmx.find(), "JAVA_OPTS bounds the heap");
        long heap = bytes(xmx.group(1) + xmx.group(2).toUpperCase() + "i");
        // the embedded engine, metaspace, threads and direct buffers live outside the heap
        assertTrue(limit >= heap + (1L << 30), "memory limit " + limit + " leaves at least 1 GiB beside the heap");
    }

    @Test
    void thePodDisruptionBudgetSelectsTheDeploymentsPodsAndNeverBlocksADrain() {
        JsonNode pdb = one("PodDisruptionBudget", "dpone");
        assertEquals("policy/v1", pdb.path("apiVersion").asText());
        JsonNode deployment = one("Deployment", "dpone");
        JsonNode podLabels = deployment.path("spec").path("template").path("metadata").path("labels");
        JsonNode selector = pdb.path("spec").path("selector").path("matchLabels");
        assertFalse(selector.isEmpty(), "the budget selects by label");
        selector.fields().forEachRemaining(e ->
            assertEquals(e.getValue().asText(), podLabels.path(e.getKey()).asText(), "PDB selects the pod's " + e.getKey()));
        assertEquals(deployment.path("spec").path("selector").path("matchLabels"), selector,
            "the budget selects exactly the Deployment's pods");
        // one replica: minAvailable 1 (or maxUnavailable 0) would block every node drain; the stop is resumable
        int replicas = deployment.path("spec").path("replicas").asInt();
        assertFalse(pdb.path("spec").has("minAvailable") && pdb.path("spec").path("minAvailable").asInt() >= replicas);
        assertTrue(pdb.path("spec").path("maxUnavailable").asInt() >= 1, "a drain may evict the one pod");
        assertEquals("AlwaysAllow", pdb.path("spec").path("unhealthyPodEvictionPolicy").asText());
    }

    @Test
    void theServiceMonitorScrapesTheServedMetricsPathThroughTheService() throws Exception {
        Path overlay = Path.of("deploy/k8s-prometheus-operator");
        JsonNode kustomization = YAML.readTree(overlay.resolve("kustomization.yaml").toFile());
        List<String> resources = new ArrayList<>();
        kustomization.path("resources").forEach(r -> resources.add(r.asText()));
        assertEquals(List.of("../k8s", "servicemonitor.yaml"), resources, "the base plus the ServiceMonitor");
        JsonNode monitor = YAML.readTree(overlay.resolve("servicemonitor.yaml").toFile());
        assertEquals("ServiceMonitor", monitor.path("kind").asText());
        assertEquals("monitoring.coreos.com/v1", monitor.path("apiVersion").asText());
        JsonNode svc = one("Service", "dpone");
        monitor.path("spec").path("selector").path("matchLabels").fields().forEachRemaining(e -> assertEquals(
            e.getValue().asText(), svc.path("metadata").path("labels").path(e.getKey()).asText(),
            "the ServiceMonitor selects the Service by its labels"));
        JsonNode endpoint = monitor.path("spec").path("endpoints").get(0);
        assertEquals(ServeRuntime.METRICS, endpoint.path("path").asText());
        String port = endpoint.path("port").asText();
        JsonNode servicePort = null;
        for (JsonNode p : svc.path("spec").path("ports")) {
            if (p.path("name").asText().equals(port)) {
                servicePort = p;
            }
        }
        assertNotNull(servicePort, "the ServiceMonitor names a port of the Service");
        assertEquals("management", servicePort.path("targetPort").asText(), "which reaches the management port");
    }

    @Test
    void noConfigMapCarriesASecretLiteral() throws Exception {
        List<String> texts = new ArrayList<>();
        for (JsonNode doc : DOCS) {
            if (doc.path("kind").asText().equals("ConfigMap")) {
                doc.path("data").forEach(v -> texts.add(v.asText()));
            }
        }
        for (JsonNode file : one("Kustomization", null).path("configMapGenerator").get(0).path("files")) {
            texts.add(Files.readString(Path.of("deploy/k8s").resolve(file.asText())));
        }
        assertTrue(texts.size() >= 3, "the routes ConfigMap and the generated serve ConfigMap's files");
        for (String text : texts) {
            assertEquals(List.of(), secretLiterals(text));
        }
        // the check finds what it looks for
        assertEquals(3, secretLiterals("password: hunter2\nurl: jdbc:sqlserver://h;password=x\n"
            + "options: {secret_key: abc}\npassword_env: MSSQL_PASSWORD\n").size());
        assertEquals(1, secretLiterals("-----BEGIN PRIVATE KEY-----").size());
    }

    /** Lines that hold a credential literal: a password/secret/token key with a value, a URL password, a key. */
    static List<String> secretLiterals(String text) {
        java.util.regex.Pattern key = java.util.regex.Pattern.compile(
            "(?i)[\\w.-]*(password|passwd|secret|token|api_key|access_key|credential)[\\w.-]*\\s*:\\s*[^\\s#{]");
        java.util.regex.Pattern inUrl = java.util.regex.Pattern.compile("(?i)(password|pwd)=[^;&\\s]+");
        List<String> found = new ArrayList<>();
        for (String line : text.split("\n")) {
            java.util.regex.Matcher m = key.matcher(line);
            boolean literal = false;
            while (m.find()) {
                String name = m.group().substring(0, m.group().indexOf(':')).trim();
                literal |= !name.endsWith("_env"); // password_env names a variable, not the password
            }
            if (literal || inUrl.matcher(line).find() || line.contains("-----BEGIN")) {
                found.add(line.trim());
            }
        }
        return found;
    }

    private static JsonNode volume(String name) {
        for (JsonNode v : one("Deployment", "dpone").path("spec").path("template").path("spec").path("volumes")) {
            if (v.path("name").asText().equals(name)) {
                return v;
            }
        }
        throw new AssertionError("no volume " + name);
    }

    /** A Kubernetes quantity in bytes (Ki, Mi, Gi, or a plain number). */
    private static long bytes(String quantity) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)(Ki|Mi|Gi|Ti)?").matcher(quantity);
        assertTrue(m.matches(), "a memory quantity: " + quantity);
        int shift = m.group(2) == null ? 0 : switch (m.group(2)) {
            case "Ki" -> 10;
            case "Mi" -> 20;
            case "Gi" -> 30;
            default -> 40;
        };
        return Long.parseLong(m.group(1)) << shift;
    }
}
