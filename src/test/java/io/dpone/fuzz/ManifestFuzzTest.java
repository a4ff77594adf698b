package io.dpone.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.testing.CliRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutated batch manifests through {@code dpone check MANIFEST --format json}: the shipped examples and a test
 * manifest, each mutated structure-aware ({@link Mutation}); every case keeps {@link FuzzInvariants}, a manifest
 * with a planted secret is refused, and {@code check} writes nothing.
 */
class ManifestFuzzTest {
    static final int CASES = FuzzInvariants.cases(1_200);
    static final List<String> DOMAIN = List.of("mssql", "clickhouse", "s3", "mssql_demo", "clickhouse_default",
        "s3_stage", "full_refresh", "append", "typed_binary_streaming", "native_columnar_transfer", "cluster",
        "full", "sample", "none", "dbo", "analytics", "sales", "sale_id", "status", "nope_col", "__dpone__run_id",
        "10m", "-1", "0", "1", "10737418240", "ReplicatedMergeTree", "true");

    @TempDir
    Path dir;

    static List<JsonNode> bases() throws IOException {
        List<JsonNode> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of("examples/batch"))) {
            files.filter(f -> f.toString().endsWith(".yaml")).sorted().forEach(f -> out.add(Trees.read(f)));
        }
        out.add(Trees.yaml("""
            name: test-full-refresh
            source:
              type: mssql
              connection_ref: mssql_demo
              table: {schema: dbo, name: sales}
              options: {fetch_size: 1000, chunk_rows: 700}
            sink:
              type: clickhouse
              connection_ref: clickhouse_default
              table: {schema: analytics, name: sales}
              staging: {schema: analytics}
              strategy: {mode: full_refresh}
              options: {lineage: false, order_by: [sale_id]}
            quality: {distinct_columns: [sale_id, status]}
            """));
        return out;
    }

    @Test
    void mutatedManifestsAreTypedRefusalsWithNothingSensitiveOnAnyChannel() throws IOException {
        long seed = FuzzInvariants.seed();
        List<JsonNode> bases = bases();
        Random random = new Random(seed);
        Mutator mutator = new Mutator(new Mutator.Kind("manifest", true, DOMAIN, Trees::plantAnywhere), seed);
        FuzzTally tally = new FuzzTally("manifest", seed);
        Path file = dir.resolve("fuzz.batch.yaml");
        long start = System.nanoTime();
        for (int i = 0; i < CASES; i++) {
            long caseStart = System.nanoTime();
            FuzzCase c = mutator.next(bases.get(random.nextInt(bases.size())), i, FuzzInvariants.secret(random));
            Trees.write(file, c.bytes());
            CliRun run = CliRun.of("check", file.toString(), "--format", "json");
            List<String> codes;
            try {
                codes = FuzzInvariants.check(c, run, dir, seed);
                if (c.secret() != null) {
                    assertEquals(1, run.exitCode(), () -> c.describe(seed) + ": a planted secret passed check");
                }
                try (Stream<Path> left = Files.list(dir)) {
                    assertEquals(List.of(file), left.toList(), () -> c.describe(seed) + ": check wrote a file");
                }
            } catch (AssertionError e) {
                FuzzInvariants.save(c);
                throw e;
            }
            tally.add(c, run.exitCode(), codes, caseStart);
        }
        String summary = tally.write((System.nanoTime() - start) / 1_000_000);
        assertTrue(tally.cases() >= CASES, summary);
    }
}
