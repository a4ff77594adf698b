package io.dpone.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.camel.DponeCamel;
import io.dpone.serve.RouteDirectory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.camel.Endpoint;
import org.apache.camel.Route;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutated operator route files through the loader {@code dpone serve} runs ({@link RouteDirectory#scan()} on a real
 * Camel context with the shipped routes): the scan never throws and ends in bounded time; a file is either loaded,
 * with every endpoint of the context in the default component allowlist, or refused with a registered
 * {@code serve.route_*} code (never {@code serve.route_loader_failed}, which would mean an Error escaped a parser);
 * the refusal names no endpoint URI and no planted secret; nothing but the route file is in the case directory.
 * The domain holds the values an attacker would try: commands, beans on {@code java.lang.Runtime}, HTTP endpoints,
 * files outside any declared directory, the environment, shipped and reserved route ids.
 */
class RouteFileFuzzTest {
    static final int CASES = FuzzInvariants.cases(120);
    static final Set<String> ALLOWED = Set.of("direct", "seda", "timer", "scheduler", "quartz", "log");
    static final Set<String> CODES = Set.of("serve.route_file_invalid", "serve.route_file_too_large",
        "serve.route_component_refused", "serve.route_id_reserved");
    static final List<String> DOMAIN = List.of("exec:/bin/sh?args=-c id", "bean:java.lang.Runtime?method=getRuntime",
        "class:java.lang.ProcessBuilder", "platform-http:/observe/dump", "file:/etc?fileName=passwd", "file:/tmp",
        "http://example.invalid/x", "timer:x?period=100", "direct:y", "seda:z", "log:dpone.fuzz", "java.lang.Runtime",
        "${sysenv.HOME}", "${env:HOME}", "{{env:HOME}}", "${bean:loadChunk}", "${type:java.lang.System}",
        "${body}", "typed_binary_streaming", "typed_raw_streaming", "dpone_job_sales", "dpone_routes_reload",
        "user_fuzz", "beanType", "toD", "recipientList", "routeConfiguration", "rest", "groovy", "beans", "steps",
        "route", "from", "uri", "id", "to");

    @TempDir
    Path dir;

    static List<JsonNode> bases() {
        return List.of(Trees.yaml("""
            - route:
                id: user_fuzz
                from:
                  uri: timer:user_fuzz?period=60000
                  steps:
                    - log:
                        message: "fuzz tick"
                    - to: direct:user_fuzz_next
            """), Trees.yaml("""
            - route:
                id: user_fuzz_choice
                from:
                  uri: direct:user_fuzz_choice
                  steps:
                    - choice:
                        when:
                          - simple: "${body} == 'a'"
                            steps:
                              - setBody:
                                  constant: b
                        otherwise:
                          steps:
                            - to: log:dpone.fuzz
            - from:
                uri: seda:user_fuzz_queue
                steps:
                  - bean:
                      ref: loadChunk
            """));
    }

    @Test
    void mutatedRouteFilesAreLoadedWithinTheAllowlistOrRefusedTyped() throws Exception {
        long seed = FuzzInvariants.seed();
        List<JsonNode> bases = bases();
        Random random = new Random(seed + 11);
        Mutator mutator = new Mutator(new Mutator.Kind("route", true, DOMAIN, Trees::plantAnywhere), seed + 11);
        FuzzTally tally = new FuzzTally("route", seed);
        long start = System.nanoTime();
        try (DponeCamel camel = DponeCamel.start(null, true)) {
            Set<String> shippedRoutes = new HashSet<>();
            camel.context().getRoutes().forEach(r -> shippedRoutes.add(r.getRouteId()));
            for (int i = 0; i < CASES; i++) {
                long caseStart = System.nanoTime();
                FuzzCase c = mutator.next(bases.get(random.nextInt(bases.size())), i, FuzzInvariants.secret(random));
                String what = c.describe(seed);
                Path caseDir = Files.createDirectories(dir.resolve("case-" + i));
                Trees.write(caseDir.resolve("route.yaml"), c.bytes());
                try {
                    RouteDirectory directory = new RouteDirectory(camel.context(), caseDir);
                    assertEquals(1, directory.scan(), what);
                    List<String> codes = new ArrayList<>();
                    for (RouteDirectory.Rejected r : directory.rejected()) {
                        codes.add(r.code());
                        assertTrue(CODES.contains(r.code()), () -> what + ": " + r);
                        String shown = String.join("\n", directory.getRejectedRouteFiles());
                        assertFalse(shown.contains("://") || shown.contains("/bin/sh") || shown.contains("/etc"),
                            () -> what + ": a refusal shows an endpoint: " + shown);
                        if (c.secret() != null) {
                            for (String half : FuzzInvariants.halves(c.secret())) {
                                assertFalse(shown.contains(half), () -> what + ": a refusal shows the planted secret");
                            }
                        }
                    }
                    for (Endpoint e : camel.context().getEndpoints()) {
                        String scheme = e.getEndpointUri().split(":", 2)[0].toLowerCase(Locale.ROOT);
                        assertTrue(ALLOWED.contains(scheme), () -> what + ": endpoint of component " + scheme);
                    }
                    try (Stream<Path> left = Files.list(caseDir)) {
                        assertEquals(List.of(caseDir.resolve("route.yaml")), left.toList(), what);
                    }
                    tally.add(c, codes.isEmpty() ? 0 : 1, codes, caseStart);
                    // leave the context as it was for the next case
                    for (Route r : new ArrayList<>(camel.context().getRoutes())) {
                        if (!shippedRoutes.contains(r.getRouteId())) {
                            camel.context().getRouteController().stopRoute(r.getRouteId());
                            camel.context().removeRoute(r.getRouteId());
                        }
                    }
                } catch (AssertionError e) {
                    FuzzInvariants.save(c);
                    throw e;
                }
            }
        }
        String summary = tally.write((System.nanoTime() - start) / 1_000_000);
        assertTrue(tally.cases() >= CASES, summary);
    }
}
