package io.dpone.cli;

import io.dpone.connect.ConnectionContext;
import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import io.dpone.serve.JsonLogEncoder;
import io.dpone.serve.JsonLogStream;
import io.dpone.serve.ServeConfig;
import io.dpone.serve.ServeConfigLoader;
import io.dpone.serve.ServeRuntime;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code dpone serve --config FILE}: keeps the camel-main context running as a pod (scheduled jobs, CDC ticks,
 * certification on demand, routes directory, JMX, health and Prometheus metrics over HTTP) until SIGTERM.
 * A configuration with blockers exits 1 with the typed document on stderr; a clean stop exits 0.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = "Run dpone as a long-lived camel-main process: schedules, health, metrics, JMX.")
public final class ServeCommand implements Callable<Integer> {
    public static final String SCHEMA = "dpone.serve.v1";

    @Option(names = "--config", required = true, description = "serve configuration YAML (see docs/operations.md)")
    Path config;

    @Option(names = "--http-port", description = "management HTTP port for health and metrics (overrides http.port)")
    Integer httpPort;

    @Option(names = "--http-host", description = "address the management HTTP server binds (overrides http.host; "
        + "default 127.0.0.1; 0.0.0.0 opens the unauthenticated port to the network)")
    String httpHost;

    @Option(names = "--state-dir", description = "durable serve state (overrides state_dir; default $DPONE_HOME/serve)")
    Path stateDir;

    @Option(names = "--log-format", defaultValue = "text", description = "text or json (default: ${DEFAULT-VALUE})")
    Format logFormat;

    @Override
    public Integer call() throws InterruptedException {
        java.io.PrintStream stderr = System.err;
        if (logFormat == Format.json) {
            // stderr text that is no log event (a library's println, the engine's own lines) as JSON too; stays
            // until the JVM exits: shutdown hooks still log after the serve has stopped
            System.setErr(new JsonLogStream(stderr));
        }
        return serve(stderr);
    }

    private int serve(java.io.PrintStream stderr) throws InterruptedException {
        ServeRuntime runtime;
        try {
            ServeConfig c = ServeConfigLoader.load(config);
            if (httpPort != null) {
                if (httpPort < 1 || httpPort > 65535) {
                    return blocked(List.of(Blocker.of(io.dpone.error.BlockerCode.SERVE_HTTP_PORT_INVALID, "--http-port",
                        "the management port must be between 1 and 65535, got " + httpPort)));
                }
                c = c.withHttpPort(httpPort);
            }
            if (httpHost != null) {
                c = c.withHttpHost(httpHost);
            }
            if (stateDir != null) {
                c = c.withStateDir(stateDir.toAbsolutePath());
            }
            if (logFormat == Format.json) {
                JsonLogEncoder.install(); // log events as JSON objects, a stack trace as one field
            }
            runtime = ServeRuntime.start(c, ConnectionContext.fromEnvironment(), Map.of());
        } catch (DponeException e) {
            System.setErr(stderr); // the typed failure document goes out whole, not as log lines
            return blocked(e.blockers());
        }
        Thread hook = new Thread(runtime::stop, "dpone-serve-sigterm");
        Runtime.getRuntime().addShutdownHook(hook);
        runtime.awaitStopped();
        return DponeCli.OK;
    }

    private int blocked(List<Blocker> blockers) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("schema", SCHEMA);
        doc.put("passed", false);
        doc.put("blockers", blockers);
        return Output.emit(false, doc, "serve blocked:\n" + Output.blockersText(blockers), logFormat);
    }
}
