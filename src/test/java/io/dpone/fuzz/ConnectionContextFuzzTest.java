package io.dpone.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpone.connect.ConnectionContext;
import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import io.dpone.testing.CliRun;
import io.dpone.testing.Manifests;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutated connection contexts (the example of docs/connections.md and one with every alias type), loaded by
 * {@link ConnectionContext#load} and by {@code dpone check} of a manifest naming two of their aliases: every case
 * keeps {@link FuzzInvariants}; a load either returns or throws a typed {@link DponeException} that holds no planted
 * secret; a context whose only change is a planted literal secret is {@code connection.literal_secret}.
 */
class ConnectionContextFuzzTest {
    static final int CASES = FuzzInvariants.cases(1_000);
    static final List<String> DOMAIN = List.of("mssql", "clickhouse", "s3", "MSSQL", "sqlserver", "jdbc:sqlserver:",
        "jdbc:h2:mem:x", "jdbc:sqlserver://h:1433;databaseName=x", "https://ch.example:8443", "http://[::1]:8123",
        "https://user@ch.example", "ftp://x", "not a url", "DPONE_X", "", "/run/secrets/x", "../x", "/dev/zero",
        "0s", "-1m", "10m", "99999999999d", "analytics", "mssql_prod", "clickhouse_prod");

    @TempDir
    Path dir;

    static List<JsonNode> bases() throws IOException {
        String docs = Files.readString(Path.of("docs/connections.md"));
        Matcher m = Pattern.compile("```yaml\n(connections:.*?)```", Pattern.DOTALL).matcher(docs);
        assertTrue(m.find(), "docs/connections.md shows a context");
        return List.of(Trees.yaml(m.group(1)), Trees.yaml("""
            connections:
              mssql_prod:
                type: mssql
                url: jdbc:sqlserver://sql.example:1433;databaseName=sales;encrypt=true;trustServerCertificate=false
                user: dpone_reader
                password_env: DPONE_FUZZ_MSSQL_PASSWORD
              clickhouse_prod:
                type: clickhouse
                url: https://dpone_writer@ch.example:8443
                password_file: secrets/clickhouse
                options: {database: analytics, socket_timeout: 30s}
              s3_stage:
                type: s3
                url: https://s3.example:9000
                user: access
                password_env: DPONE_FUZZ_S3_SECRET
                options: {bucket: stage, region: eu-west-1, path_style: "true"}
              h2_local:
                type: mssql
                url: jdbc:h2:mem:fuzz;MODE=MSSQLServer
                user: sa
            """));
    }

    /** A literal secret where the docs say one is refused: URL parameter, user-info, a credential key or option. */
    static boolean plant(ArrayNode holder, Mutator.Planting p) {
        JsonNode connections = holder.size() == 0 ? null : holder.get(0).path("connections");
        List<ObjectNode> aliases = new ArrayList<>();
        if (connections != null && connections.isObject()) {
            connections.forEach(a -> {
                if (a instanceof ObjectNode o) {
                    aliases.add(o);
                }
            });
        }
        if (aliases.isEmpty()) {
            return Trees.plantAnywhere(holder, p);
        }
        ObjectNode alias = Trees.any(p.random(), aliases);
        String url = alias.path("url").isTextual() ? alias.get("url").asText() : "jdbc:sqlserver://h:1433";
        String s = p.secret();
        switch (p.random().nextInt(6)) {
            case 0 -> alias.put("url", url + (url.startsWith("jdbc:") ? ";password=" : "?password=") + s);
            case 1 -> alias.put("url", url + (url.startsWith("jdbc:") ? ";PWD=" : "?token=") + s);
            case 2 -> alias.put("url", "https://dpone:" + s + "@ch.example:8443");
            case 3 -> alias.put(Trees.any(p.random(), List.of("password", "secret", "token", "api_key")), s);
            case 4 -> {
                JsonNode options = alias.path("options");
                ObjectNode o = options instanceof ObjectNode on ? on : alias.putObject("options");
                o.put(Trees.any(p.random(), List.of("password", "secret_key", "access_key_id", "auth_token")), s);
            }
            default -> {
                JsonNode options = alias.path("options");
                ObjectNode o = options instanceof ObjectNode on ? on : alias.putObject("options");
                o.put("endpoint", "https://ch.example:8443/?password=" + s);
            }
        }
        return true;
    }

    @Test
    void mutatedContextsAreTypedRefusalsWithNoPlantedSecretOnAnyChannel() throws IOException {
        long seed = FuzzInvariants.seed();
        List<JsonNode> bases = bases();
        Random random = new Random(seed + 1);
        Mutator mutator = new Mutator(new Mutator.Kind("context", true, DOMAIN,
            ConnectionContextFuzzTest::plant), seed + 1);
        FuzzTally tally = new FuzzTally("context", seed);
        Path context = dir.resolve("context.yaml");
        Path manifest = Manifests.write(dir.resolve("job.batch.yaml"), """
            name: fuzz-context
            source: {type: mssql, connection_ref: mssql_prod, table: {schema: dbo, name: sales}}
            sink:
              type: clickhouse
              connection_ref: clickhouse_prod
              table: {schema: analytics, name: sales}
              staging: {schema: analytics}
              strategy: {mode: full_refresh}
            """);
        String before = System.getProperty(ConnectionContext.PROPERTY);
        long start = System.nanoTime();
        try {
            System.setProperty(ConnectionContext.PROPERTY, context.toString());
            for (int i = 0; i < CASES; i++) {
                long caseStart = System.nanoTime();
                FuzzCase c = mutator.next(bases.get(random.nextInt(bases.size())), i, FuzzInvariants.secret(random));
                Trees.write(context, c.bytes());
                try {
                    List<String> loadCodes = load(c, context, seed);
                    CliRun run = CliRun.of("check", manifest.toString(), "--format", "json");
                    List<String> codes = FuzzInvariants.check(c, run, dir, seed);
                    for (String code : loadCodes) {
                        assertTrue(codes.contains(code), () -> c.describe(seed) + ": check left out " + code);
                    }
                    if (c.secret() != null && c.mutations().equals(List.of(Mutation.PLANT_SECRET))) {
                        assertTrue(codes.contains("connection.literal_secret"), () -> c.describe(seed)
                            + ": a literal secret was not refused: " + codes);
                    }
                    tally.add(c, run.exitCode(), codes, caseStart);
                } catch (AssertionError e) {
                    FuzzInvariants.save(c);
                    throw e;
                }
            }
        } finally {
            if (before == null) {
                System.clearProperty(ConnectionContext.PROPERTY);
            } else {
                System.setProperty(ConnectionContext.PROPERTY, before);
            }
        }
        String summary = tally.write((System.nanoTime() - start) / 1_000_000);
        assertTrue(tally.cases() >= CASES, summary);
    }

    /** Loads the context directly: it returns, or throws a typed refusal without the secret; the codes. */
    private static List<String> load(FuzzCase c, Path file, long seed) {
        try {
            ConnectionContext.load(file);
            return List.of();
        } catch (DponeException e) {
            List<String> codes = new ArrayList<>();
            for (Blocker b : e.blockers()) {
                assertTrue(FuzzInvariants.KNOWN.contains(b.code()), () -> c.describe(seed) + ": code " + b.code());
                codes.add(b.code());
                if (c.secret() != null) {
                    String text = b.subject() + " " + b.message() + " " + b.details();
                    FuzzInvariants.halves(c.secret()).forEach(h -> assertFalse(text.contains(h),
                        () -> c.describe(seed) + ": the secret in " + b.code()));
                }
            }
            assertFalse(codes.isEmpty(), c.describe(seed));
            return codes;
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            fail(c.describe(seed) + ": ConnectionContext.load threw " + e.getClass().getName());
            return List.of();
        }
    }
}
