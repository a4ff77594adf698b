package io.dpone.serve;

import static io.dpone.serve.ServeFixture.await;
import static io.dpone.serve.ServeFixture.jmx;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18 item 4, the JMX channel of {@code dpone serve}: after a job fails against a dead ClickHouse server and the
 * readiness check has probed S3 at a dead endpoint (both with planted credentials), no attribute of any dpone or Camel
 * MBean (strings, arrays, composite and tabular values as text) names a planted secret, endpoint or path, or holds a
 * stack trace.
 */
@io.dpone.testing.EngineTest
class ServeJmxChannelTest {
    static final String PASSWORD = "jmx-Pl4nted-Secret-5150";
    static final String S3_SECRET = "jmx-Pl4nted-S3-Secret-5150";

    @TempDir
    Path dir;

    @Test
    void noMBeanAttributeNamesAPlantedSecretEndpointOrPath() throws Exception {
        int dead;
        try (ServerSocket s = new ServerSocket(0)) {
            dead = s.getLocalPort();
        }
        String host = "jmx-audit-" + dead + ".invalid";
        Path manifest = Files.writeString(dir.resolve("manifest.yaml"), Files.readString(
            Manifests.fullRefresh(dir, "sales", "jmx_db", null)).replace("connection_ref: " + TestEngines.CLICKHOUSE,
            "connection_ref: clickhouse_dead"));
        ServeConfig config = ServeConfigLoader.load(ServeFixture.config(dir, manifest, "{every: 300ms, start_after: 50ms}",
            "readiness: {connections: [s3_dead, clickhouse_unknown]}"));
        Path passwordFile = Files.writeString(dir.resolve("ch.password"), PASSWORD);
        Map<String, ContextEntry> entries = new HashMap<>();
        entries.put(TestEngines.SOURCE, TestEngines.context(TestEngines.newH2Url()).entry(TestEngines.SOURCE).orElseThrow());
        entries.put("clickhouse_dead", new ContextEntry("clickhouse_dead", ConnectionType.CLICKHOUSE,
            "http://127.0.0.1:" + dead, "dpone", null, passwordFile.toString(), false, Map.of()));
        entries.put("clickhouse_unknown", new ContextEntry("clickhouse_unknown", ConnectionType.CLICKHOUSE,
            "http://" + host + ":8123", "dpone", null, passwordFile.toString(), false, Map.of()));
        Path s3Secret = Files.writeString(dir.resolve("s3.secret"), S3_SECRET);
        entries.put("s3_dead", new ContextEntry("s3_dead", ConnectionType.S3, "http://127.0.0.1:" + dead,
            "AKIAJMXPLANTED000001", null, s3Secret.toString(), false,
            Map.of("bucket", "dpone-stage", "region", "us-east-1", "path_style", "true")));
        try (ServeRuntime serve = ServeRuntime.start(config, ConnectionContext.of(entries, false), Map.of())) {
            await(Duration.ofSeconds(60), "two failed runs of the job",
                () -> (Long) jmx("io.dpone:type=jobs,name=sales", "FailedRuns") >= 2);
            ServeFixture.get(config.httpPort(), ServeRuntime.HEALTH + "?data=true"); // the readiness probes run
            // the management server's own bind address (http.host, loopback by default) is not a planted endpoint
            String all = attributes().replaceAll("(?m)^org\\.apache\\.camel:context=dpone,type=services,"
                + "name=(ManagementHttpServer|VertxPlatformHttpServer) Host=127\\.0\\.0\\.1$", "");
            assertTrue(all.contains("connection.failed"), "the job's failure is typed in JMX: " + all);
            for (String leak : List.of(PASSWORD, S3_SECRET, "AKIAJMXPLANTED000001", "127.0.0.1", ":" + dead, host,
                dir.toString())) {
                assertFalse(all.contains(leak), () -> "JMX names " + leak + ":\n" + all);
            }
            assertFalse(all.matches("(?s).*\\n\\s*at [\\w$.]+\\(.*"), () -> "a stack trace in JMX:\n" + all);
        }
    }

    /** Every readable attribute of every io.dpone and org.apache.camel MBean, one line each. */
    private static String attributes() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        List<String> lines = new ArrayList<>();
        for (String domain : List.of("io.dpone:*", "org.apache.camel:*")) {
            for (ObjectName name : server.queryNames(new ObjectName(domain), null)) {
                lines.add(name.toString());
                for (MBeanAttributeInfo a : server.getMBeanInfo(name).getAttributes()) {
                    if (!a.isReadable()) {
                        continue;
                    }
                    Object value;
                    try {
                        value = server.getAttribute(name, a.getName());
                    } catch (Exception | LinkageError e) {
                        continue; // an attribute that cannot be read shows nothing
                    }
                    String text = value instanceof Object[] array ? java.util.Arrays.deepToString(array)
                        : String.valueOf(value);
                    lines.add(name + " " + a.getName() + "=" + text);
                }
            }
        }
        return String.join("\n", lines);
    }
}
