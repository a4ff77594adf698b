package io.dpone.cdc;

import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.dpone.cdc.runtime.CdcMode;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.testing.CliRun;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Fixture files, the spec example's directory layout and small JSON helpers for the CDC tests. */
final class CdcFixtures {
    static final Path FIXTURES = Path.of("src/test/resources/fixtures/cdc");
    static final ObjectMapper JSON = JsonMapper.builder()
        .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
        .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
        .build();

    private CdcFixtures() {
    }

    /** {@code base/test_artifacts/cdc_runtime/mssql_to_clickhouse/orders}, as in the spec's example. */
    static Path exampleDir(Path base) {
        return base.resolve("test_artifacts/cdc_runtime/mssql_to_clickhouse/orders");
    }

    /** Copies fixture {@code name} to the example's {@code events.json}. */
    static Path stage(Path base, String name) {
        return copy(FIXTURES.resolve(name), exampleDir(base).resolve("events.json"));
    }

    static Path copy(Path from, Path to) {
        try {
            Files.createDirectories(to.getParent());
            return Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode read(Path file) {
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] bytes(Path file) {
        try {
            return Files.exists(file) ? Files.readAllBytes(file) : null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Options equal to {@link CdcCli#specExample} for the tick API. */
    static CdcRunOptions specOptions(Path base) {
        Path dir = exampleDir(base);
        return CdcRunOptions.builder(CdcMode.local).systems("mssql", "clickhouse").backend("mssql_cdc")
            .pipelineName("orders-cdc").sourceTable("dbo", "orders").targetDataset("analytics.orders")
            .uniqueKeys(List.of("order_id")).eventsJson(dir.resolve("events.json"))
            .checkpointJson(dir.resolve("checkpoint.json")).outputDir(dir).build();
    }

    /** The offset token the checkpoint holds, or null when there is no checkpoint. */
    static String checkpointToken(Path base) {
        Path file = exampleDir(base).resolve("checkpoint.json");
        return Files.exists(file) ? read(file).path("offset").path("token").asText() : null;
    }

    /** Rows of the local sink log (empty when none). */
    static List<JsonNode> sinkRows(Path base) {
        Path file = exampleDir(base).resolve("sink/cdc_sink_rows.json");
        List<JsonNode> rows = new ArrayList<>();
        if (Files.exists(file)) {
            read(file).path("rows").forEach(rows::add);
        }
        return rows;
    }

    /** The codes of a failure document's blockers. */
    static List<String> codes(JsonNode doc) {
        List<String> out = new ArrayList<>();
        doc.path("blockers").forEach(b -> out.add(b.path("code").asText()));
        return out;
    }

    static List<String> subjects(JsonNode doc) {
        List<String> out = new ArrayList<>();
        doc.path("blockers").forEach(b -> out.add(b.path("subject").asText()));
        return out;
    }

    /** No absolute local path of the test in stdout, stderr or any file dpone wrote (inputs excluded). */
    static void assertNoLocalPath(CliRun run, Path base) {
        String root = base.toAbsolutePath().toString();
        assertFalse(run.stdout().contains(root), run.stdout());
        assertFalse(run.stderr().contains(root), run.stderr());
        try (Stream<Path> files = Files.walk(base)) {
            files.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().startsWith("events"))
                .forEach(f -> {
                    try {
                        assertFalse(Files.readString(f).contains(root), f.getFileName() + " holds a local path");
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
