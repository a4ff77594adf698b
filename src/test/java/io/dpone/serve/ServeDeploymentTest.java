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
    void kustomizationListsEveryFile() throws Exception {
        Set<String> listed = new HashSet<>();
        one("Kustomization", null).path("resources").forEach(r -> listed.add(r.asText()));
        try (Stream<Path> files = Files.list(Path.of("deploy/k8s"))) {
            Set<String> present = new HashSet<>(files.map(p -> p.getFileName().toString())
                .filter(n -> n.endsWith(".yaml") && !n.equals("kustomization.yaml")).toList());
            assertEquals(present, listed);
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
        for (JsonNode v : pod.path("volumes")) {
            if (v.has("configMap")) {
                one("ConfigMap", v.path("configMap").path("name").asText());
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
        assertTrue(docker.contains("FROM eclipse-temurin:17-jre"));
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

    private ServeConfig serveConfigFromConfigMap() throws Exception {
        JsonNode data = one("ConfigMap", "dpone-serve").path("data");
        for (var it = data.fields(); it.hasNext(); ) {
            var e = it.next();
            Files.writeString(dir.resolve(e.getKey()), e.getValue().asText());
        }
        return ServeConfigLoader.load(dir.resolve("serve.yaml"));
    }
}
