package io.dpone.camel;

import java.util.ServiceLoader;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.main.Main;

/**
 * The camel-main context every entry point starts (CLI, Java API, {@code dpone serve}): YAML DSL routes from the
 * classpath plus an optional directory, the processors bound by name, and one shared error policy. It sits below the
 * packages whose routes it runs (the full refresh in {@code route}, the CDC tick and hand-over in {@code cdc}): each
 * of them names its beans through a {@link DponeBeans} service, so this class imports none of them.
 */
public final class DponeCamel implements AutoCloseable {
    public static final String CLASSPATH_ROUTES = "classpath:routes/config/*.yaml,classpath:routes/*.yaml";
    /**
     * The logger of every {@code log} step without its own {@code logName} (Camel's default is the route id, which no
     * logging configuration can know in advance): {@code dpone.route}, logged at INFO like dpone's own loggers.
     */
    public static final String LOG_EIP_NAME = "dpone.route";

    private final Main main;
    private final ProducerTemplate template;

    private DponeCamel(Main main) throws Exception {
        this.main = main;
        this.template = main.getCamelContext().createProducerTemplate();
    }

    /** Starts a context with the shipped routes, plus {@code extraRoutesPattern} (e.g. {@code file:/routes/*.yaml}). */
    public static DponeCamel start(String extraRoutesPattern, boolean jmx) {
        return start(extraRoutesPattern, jmx, java.util.Map.of());
    }

    /**
     * As {@link #start(String, boolean)}, with beans bound over the shipped processors (an embedding application's
     * own step, or a fault-injecting step in the crash tests).
     */
    public static DponeCamel start(String extraRoutesPattern, boolean jmx, java.util.Map<String, Object> overrides) {
        return start(extraRoutesPattern, jmx, overrides, java.util.Map.of());
    }

    /**
     * As {@link #start(String, boolean, java.util.Map)}, with camel-main properties ({@code camel.management.port},
     * {@code camel.metrics.enabled}, ...) applied before the context starts ({@code dpone serve}).
     */
    public static DponeCamel start(String extraRoutesPattern, boolean jmx, java.util.Map<String, Object> overrides,
                                   java.util.Map<String, String> properties) {
        Main main = new Main();
        properties.forEach(main::addInitialProperty);
        main.configure().withRoutesIncludePattern(extraRoutesPattern == null || extraRoutesPattern.isBlank()
            ? CLASSPATH_ROUTES : CLASSPATH_ROUTES + "," + extraRoutesPattern);
        main.configure().withJmxEnabled(jmx);
        main.configure().withName("dpone");
        main.configure().withShutdownTimeout(30);
        // no camel-main hangup hook (the default strategy's JVM shutdown hook): dpone never runs Main's own loop, so
        // on SIGTERM that hook only waited shutdownTimeout + extraShutdownTimeout (45 s) for a stop nobody performs,
        // keeping a run blocked on a silent server alive that long. Each entry point stops the context itself
        // (serve's SIGTERM hook, the CLI command as it ends, an embedding application's close). The simple strategy
        // is the default one without that hook (DefaultMainShutdownStrategy.disableHangupSupport does not stop it
        // from being installed in Camel 4.18).
        main.setShutdownStrategy(new org.apache.camel.main.SimpleMainShutdownStrategy());
        main.addMainListener(new org.apache.camel.main.MainListenerSupport() {
            @Override
            public void beforeConfigure(org.apache.camel.main.BaseMainSupport support) {
                support.getCamelContext().getGlobalOptions().put(org.apache.camel.Exchange.LOG_EIP_NAME, LOG_EIP_NAME);
            }
        });
        java.util.Map<String, Object> beans = new java.util.LinkedHashMap<>();
        for (DponeBeans provider : ServiceLoader.load(DponeBeans.class, DponeCamel.class.getClassLoader())) {
            beans.putAll(provider.beans());
        }
        beans.putAll(overrides);
        beans.forEach(main::bind);
        try {
            main.start();
            return new DponeCamel(main);
        } catch (Exception e) {
            throw new IllegalStateException("the Camel runtime failed to start: " + e.getMessage(), e);
        }
    }

    public CamelContext context() {
        return main.getCamelContext();
    }

    /** Sends {@code body} to {@code direct:routeId} and waits; the route's failure is rethrown. */
    public Object call(String routeId, Object body) {
        if (context().getRoute(routeId) == null) {
            throw new IllegalArgumentException("no route with id " + routeId);
        }
        return template.requestBody("direct:" + routeId, body);
    }

    /**
     * Sends an exchange that {@code prepare} fills to {@code direct:routeId} and waits; returns it, with the route's
     * failure (if any) on it, not thrown.
     */
    public Exchange send(String routeId, java.util.function.Consumer<Exchange> prepare) {
        if (context().getRoute(routeId) == null) {
            throw new IllegalArgumentException("no route with id " + routeId);
        }
        return template.send("direct:" + routeId, prepare::accept);
    }

    @Override
    public void close() {
        try {
            template.close();
        } catch (Exception ignored) {
            // closing a producer template cannot lose data
        }
        main.stop();
    }
}
