package io.dpone.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.testing.CliRun;
import io.dpone.testing.Manifests;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * YAML reads a number beyond a double's range ({@code 1e309}) as a non-finite double;
 * the schema validator could not compare one with an enum and {@code check} ended in {@code runtime.internal_error}
 * (found by the fuzz suite). Each is {@code manifest.invalid_value} at its path, with the manifest's other problems.
 */
class NonFiniteNumberTest {
    @TempDir
    Path dir;

    @Test
    void nonFiniteNumbersAreInvalidValuesAtTheirPathsNotACrash() throws Exception {
        Path m = Manifests.write(dir.resolve("m.yaml"), """
            name: non-finite
            source: {type: mssql, connection_ref: mssql_demo, table: {schema: dbo, name: sales}}
            sink:
              type: clickhouse
              connection_ref: clickhouse_default
              table: {schema: analytics, name: sales}
              staging: {schema: analytics}
              strategy:
                mode: 1.7976931348623157E+309
                max_source_bytes: -1e400
              options:
                lineage: 2e308
                order_by: [sale_id]
                route: 7
            """);
        CliRun run = CliRun.of("check", m.toString(), "--format", "json");
        assertEquals(1, run.exitCode(), run.stderr());
        List<String> found = new ArrayList<>();
        for (JsonNode b : new ObjectMapper().readTree(run.stderr()).get("blockers")) {
            found.add(b.get("code").asText() + " " + b.get("subject").asText());
        }
        assertEquals(List.of("manifest.invalid_value sink.options.lineage",
            "manifest.invalid_value sink.options.route", "manifest.invalid_value sink.strategy.max_source_bytes",
            "manifest.invalid_value sink.strategy.mode"), found.stream().sorted().toList(), run.stderr());
    }

    @Test
    void aBinaryScalarIsAWrongTypeAtItsPathNotACrash() throws Exception {
        Path m = Manifests.write(dir.resolve("b.yaml"), """
            name: binary
            source: {type: mssql, connection_ref: mssql_demo, table: {schema: dbo, name: sales}}
            sink:
              type: clickhouse
              connection_ref: clickhouse_default
              table: {schema: !!binary aGVsbG8=, name: sales}
              strategy: {mode: full_refresh}
            """);
        CliRun run = CliRun.of("check", m.toString(), "--format", "json");
        assertEquals(1, run.exitCode(), run.stderr());
        List<String> found = new ArrayList<>();
        for (JsonNode b : new ObjectMapper().readTree(run.stderr()).get("blockers")) {
            found.add(b.get("code").asText() + " " + b.get("subject").asText());
        }
        assertEquals(List.of("manifest.wrong_type sink.table.schema"), found, run.stderr());
    }
}
