package io.dpone.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import io.dpone.testing.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Each invalid fixture is named for the blocker code it must raise; {@code dpone check} reports it with exit 1. */
class ManifestBlockerTest {
    static final Path FIXTURES = Path.of("src/test/resources/fixtures/manifests");

    static Stream<Path> invalidFixtures() throws Exception {
        return Files.list(FIXTURES.resolve("invalid")).sorted();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidFixtures")
    void fixtureRaisesTheBlockerItIsNamedFor(Path fixture) throws Exception {
        String code = fixture.getFileName().toString().replaceFirst("\\.yaml$", "");
        CliRun run = CliRun.of("check", fixture.toString(), "--format", "json");
        assertEquals(1, run.exitCode(), run.stderr());
        assertEquals("", run.stdout(), "a failure document goes to stderr only");
        JsonNode doc = new ObjectMapper().readTree(run.stderr());
        assertEquals("dpone.check.v1", doc.get("schema").asText());
        List<String> codes = new ArrayList<>();
        doc.get("blockers").forEach(b -> codes.add(b.get("code").asText()));
        assertTrue(codes.contains(code), () -> code + " not in " + codes);
    }

    @Test
    void subjectsAreManifestPaths() {
        assertEquals("sink.tabel", first("manifest.unknown_key").subject());
        assertEquals("sink.strategy", first("manifest.missing_field").subject());
        assertEquals("sink.strategy.max_source_bytes", first("manifest.wrong_type").subject());
        assertEquals("sink.strategy.mode", first("manifest.invalid_value").subject());
        assertEquals("sink.table.name", first("manifest.invalid_identifier").subject());
        assertEquals("sink.password", first("manifest.literal_secret").subject());
    }

    @Test
    void everyProblemIsReportedAtOnce() {
        DponeException e = assertThrows(DponeException.class,
            () -> ManifestLoader.load(FIXTURES.resolve("many-problems.yaml")));
        List<String> found = e.blockers().stream().map(b -> b.code() + "@" + b.subject()).toList();
        assertTrue(found.containsAll(List.of("manifest.invalid_value@source.type",
            "manifest.invalid_identifier@source.table.name", "manifest.missing_field@sink.table.name",
            "manifest.invalid_value@sink.strategy.max_source_bytes")), found::toString);
    }

    @Test
    void literalSecretValueNeverAppearsInTheReport() {
        CliRun run = CliRun.of("check", FIXTURES.resolve("invalid/manifest.literal_secret.yaml").toString(),
            "--format", "json");
        assertTrue(!run.stderr().contains("hunter2-literal") && !run.stdout().contains("hunter2-literal"));
    }

    @Test
    void unreadableFileIsATypedBlocker(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("latin1.yaml");
        Files.write(bad, new byte[] {'a', ':', ' ', (byte) 0xE9, (byte) 0xFF, '\n'});
        assertEquals("manifest.unreadable", assertThrows(DponeException.class, () -> ManifestLoader.load(bad))
            .blockers().get(0).code());
        CliRun missing = CliRun.of("check", dir.resolve("absent.yaml").toString());
        assertEquals(1, missing.exitCode());
        assertTrue(missing.stderr().contains("manifest.unreadable"));
    }

    @Test
    void shippedExampleChecksClean() {
        CliRun run = CliRun.of("check", "examples/batch/embedded-full-refresh.batch.yaml", "--format", "json");
        assertEquals(0, run.exitCode(), run.stderr());
        assertTrue(run.stdout().contains("\"passed\" : true"));
    }

    @Test
    void anIdentifierLongerThanSqlServersSysnameIsRefusedByCheckWithItsLine(@TempDir Path dir) throws Exception {
        String base = Files.readString(Path.of("examples/batch/embedded-full-refresh.batch.yaml"));
        Path fits = Files.writeString(dir.resolve("fits.yaml"), base.replace("name: sales", "name: " + "t".repeat(128)));
        assertEquals(0, CliRun.of("check", fits.toString(), "--format", "json").exitCode());
        Path tooLong = Files.writeString(dir.resolve("long.yaml"), base.replace("name: sales", "name: "
            + "t".repeat(129)).replace("order_by: [sale_id]", "order_by: [" + "c".repeat(1_000) + "]"));
        CliRun run = CliRun.of("check", tooLong.toString(), "--format", "json");
        assertEquals(1, run.exitCode(), run.stderr());
        assertTrue(run.stderr().contains("\"subject\" : \"source.table.name\"")
            && run.stderr().contains("must be at most 128 characters"), run.stderr());
        assertTrue(run.stderr().contains("\"subject\" : \"sink.options.order_by[0]\""), "every problem at once: "
            + run.stderr());
        assertTrue(run.stderr().length() < 5_000, "the long value is not echoed");
    }

    @Test
    void shippedCertificationExampleChecksCleanAndItsStorageAliasIsChecked(@TempDir Path dir) throws Exception {
        CliRun ok = CliRun.of("check", "examples/certification/embedded-sales.yaml", "--format", "json");
        assertEquals(0, ok.exitCode(), ok.stderr());
        Path bad = dir.resolve("bad-storage.yaml");
        Files.writeString(bad, Files.readString(Path.of("examples/certification/embedded-sales.yaml"))
            .replace("connection_id: s3_stage", "connection_id: clickhouse_default"));
        CliRun run = CliRun.of("check", bad.toString(), "--format", "json");
        assertEquals(1, run.exitCode());
        assertTrue(run.stderr().contains("connection.type_mismatch"), run.stderr());
        assertTrue(run.stderr().contains("runtime_access.connection_id"), run.stderr());
    }

    /**
     * The options the runtime cannot honour are refused with their manifest paths, next to a schema problem, all at
     * once: an Airflow runtime credential, a bulk mode that is not the sink's transport (the embedded engine is the
     * in-process client, not HTTP), and a columnar mode that excludes the (default) route.
     */
    @Test
    void optionsTheRuntimeCannotHonourAreRefusedByCheckWithTheirPaths(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("ignored-keys.yaml");
        Files.writeString(bad, Files.readString(Path.of("examples/certification/embedded-sales.yaml"))
            .replace("connection_type: context", "connection_type: airflow")
            .replace("mode: client", "mode: http")
            .replace("mode: auto\n", "mode: required\n")
            .replace("fetch_size: 10000", "fetch_size: 10000\n    fetch_sise: 1"));
        CliRun run = CliRun.of("check", bad.toString(), "--format", "json");
        assertEquals(1, run.exitCode(), run.stderr());
        var blockers = new com.fasterxml.jackson.databind.ObjectMapper().readTree(run.stderr()).get("blockers");
        java.util.Map<String, String> bySubject = new java.util.TreeMap<>();
        blockers.forEach(b -> bySubject.put(b.get("subject").asText(), b.get("code").asText()));
        assertEquals(java.util.Map.of(
            "source.options.fetch_sise", "manifest.unknown_key",
            "source.options.native_transfer.snapshot.columnar_fast_path.object_storage.runtime_access.connection_type",
            "manifest.option_unsupported",
            "sink.options.clickhouse_bulk.mode", "manifest.option_unsupported",
            "source.options.native_transfer.snapshot.columnar_fast_path.mode", "manifest.route_excluded"),
            bySubject, run.stderr());

        Path disabled = dir.resolve("disabled.yaml");
        Files.writeString(disabled, Files.readString(Path.of("examples/certification/embedded-sales.yaml"))
            .replace("mode: auto\n", "mode: disabled\n")
            .replace("order_by: [sale_id]", "order_by: [sale_id]\n    route: object_storage_pull_s3"));
        CliRun off = CliRun.of("check", disabled.toString(), "--format", "json");
        assertEquals(1, off.exitCode(), off.stderr());
        assertTrue(off.stderr().contains("manifest.route_excluded"), off.stderr());
        Files.writeString(disabled, Files.readString(disabled).replace("route: object_storage_pull_s3",
            "route: typed_raw_streaming"));
        assertEquals(0, CliRun.of("check", disabled.toString(), "--format", "json").exitCode(),
            "disabled admits the streaming routes");
    }

    @Test
    void usageErrorsExitTwo() {
        assertEquals(2, CliRun.of("check").exitCode());
        assertEquals(2, CliRun.of("run", "examples/batch/embedded-full-refresh.batch.yaml").exitCode());
        assertEquals(2, CliRun.of("check", "x.yaml", "--format", "xml").exitCode());
    }

    @Test
    void publishedSchemaInDocsIsTheOneTheLoaderUses() throws Exception {
        assertEquals(Files.readString(Path.of("src/main/resources/schema/batch-manifest.schema.json")),
            Files.readString(Path.of("docs/batch-manifest.schema.json")));
    }

    @Test
    void parallelReadersIsValidatedAndBound(@TempDir Path dir) throws Exception {
        String base = Files.readString(Path.of("examples/batch/embedded-full-refresh.batch.yaml"));
        String options = "    chunk_rows: 100000\n";
        assertTrue(base.contains(options), "the example's source options moved");
        Path ok = dir.resolve("ok.yaml");
        Files.writeString(ok, base.replace(options, options + "    parallel_readers: 4\n    parallel_min_rows: 5000\n"));
        SourceSpec src = ManifestLoader.load(ok).source();
        assertEquals(4, src.parallelReaders());
        assertEquals(5000, src.parallelMinRows());
        SourceSpec defaults = ManifestLoader.load(Path.of("examples/batch/embedded-full-refresh.batch.yaml")).source();
        assertEquals(1, defaults.parallelReaders(), "off by default");
        assertEquals(1_000_000, defaults.parallelMinRows());
        for (String bad : List.of("parallel_readers: 0", "parallel_readers: 17", "parallel_min_rows: -1")) {
            Path f = dir.resolve("bad.yaml");
            Files.writeString(f, base.replace(options, options + "    " + bad + "\n"));
            DponeException e = assertThrows(DponeException.class, () -> ManifestLoader.load(f), bad);
            String key = bad.substring(0, bad.indexOf(':'));
            assertTrue(e.blockers().stream().anyMatch(b -> b.subject().equals("source.options." + key)),
                () -> bad + ": " + e.blockers());
        }
        Path wrongType = dir.resolve("type.yaml");
        Files.writeString(wrongType, base.replace(options, options + "    parallel_readers: two\n"));
        assertEquals("manifest.wrong_type", assertThrows(DponeException.class, () -> ManifestLoader.load(wrongType))
            .blockers().get(0).code());
    }

    private static Blocker first(String code) {
        DponeException e = assertThrows(DponeException.class,
            () -> ManifestLoader.load(FIXTURES.resolve("invalid/" + code + ".yaml")));
        return e.blockers().stream().filter(b -> b.code().equals(code)).findFirst().orElseThrow();
    }
}
