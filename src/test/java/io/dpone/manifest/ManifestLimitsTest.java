package io.dpone.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.connect.BoundedYaml;
import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import io.dpone.testing.CliRun;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A manifest is bounded before it is parsed: a file over {@link YamlMappingFile#MAX_BYTES} (a 60 MB file, an endless
 * device) and a line over {@link BoundedYaml#MAX_LINE_CHARS} are {@code manifest.too_large}, so the parser (whose
 * cost grows with the square of a token's length) never sees them; nesting past {@link BoundedYaml#MAX_DEPTH} is
 * refused by the parser with the same code.
 */
class ManifestLimitsTest {
    @TempDir
    Path dir;

    private Blocker refusal(Path file) {
        List<Blocker> blockers = assertThrows(DponeException.class, () -> ManifestLoader.load(file)).blockers();
        assertEquals(1, blockers.size(), blockers::toString);
        return blockers.get(0);
    }

    @Test
    void aSixtyMegabyteFileIsRefusedBySizeWithoutItsPath() throws Exception {
        Path big = dir.resolve("big.yaml");
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(60L * 1024 * 1024);
        }
        Blocker b = refusal(big);
        assertEquals("manifest.too_large", b.code());
        assertEquals("$", b.subject());
        assertTrue(b.message().contains(String.valueOf(YamlMappingFile.MAX_BYTES)), b.message());
        assertFalse(b.message().contains(dir.toString()), b.message());
    }

    @Test
    void dponeCheckRefusesASixtyMegabyteManifestWithOneTypedBlockerOnStderr() throws Exception {
        Path big = dir.resolve("big.yaml");
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(60L * 1024 * 1024);
        }
        CliRun run = CliRun.of("check", big.toString(), "--format", "json");
        assertEquals(1, run.exitCode(), run.stderr());
        assertEquals("", run.stdout());
        JsonNode blockers = new ObjectMapper().readTree(run.stderr()).get("blockers");
        assertEquals(1, blockers.size(), run.stderr());
        assertEquals("manifest.too_large", blockers.get(0).get("code").asText());
        assertFalse(run.stderr().contains(dir.toString()) || run.stderr().contains("\tat "), run.stderr());
    }

    @Test
    void anEndlessDeviceOrAFifoIsRefusedUnopened() throws Exception {
        Path zero = Path.of("/dev/zero");
        Assumptions.assumeTrue(Files.isReadable(zero), "a Linux machine");
        // issue 37: not a regular file, refused before it is opened (a FIFO's open would block until a writer came)
        assertEquals("manifest.unreadable", refusal(zero).code());
        assertEquals("manifest.unreadable", assertTimeoutPreemptively(java.time.Duration.ofSeconds(20),
            () -> refusal(io.dpone.testing.Fifos.make(dir.resolve("m.yaml")))).code());
    }

    @Test
    void oneByteOverTheBoundIsRefusedAndAFileAtTheBoundIsParsed() throws Exception {
        String head = "name: at-the-bound\n";
        String padding = ("# " + "x".repeat(98) + "\n").repeat(YamlMappingFile.MAX_BYTES / 101);
        String at = head + padding + "#".repeat(YamlMappingFile.MAX_BYTES - head.length() - padding.length());
        assertEquals(YamlMappingFile.MAX_BYTES, at.length());
        List<String> codes = assertThrows(DponeException.class,
            () -> ManifestLoader.load(Files.writeString(dir.resolve("at.yaml"), at))).blockers().stream()
            .map(Blocker::code).distinct().toList();
        assertEquals(List.of("manifest.missing_field"), codes, "parsed, then found incomplete");
        assertEquals("manifest.too_large", refusal(Files.writeString(dir.resolve("over.yaml"), at + "#")).code());
    }

    @Test
    void aLineOverTheLineBoundIsRefusedBeforeParsingWithItsNumber() throws Exception {
        String line = "name: \"" + "a".repeat(BoundedYaml.MAX_LINE_CHARS) + "\"";
        Blocker b = refusal(Files.writeString(dir.resolve("long.yaml"), "version: 1\r\n" + line + "\n"));
        assertEquals("manifest.too_large", b.code());
        assertTrue(b.message().contains("line 2 "), b.message());
        assertFalse(b.message().contains("aaaa"), "never the file's text: " + b.message());
        String fits = "name: " + "a".repeat(BoundedYaml.MAX_LINE_CHARS - "name: ".length());
        assertEquals(0, BoundedYaml.firstLongLine(fits + "\r\n" + fits));
        assertEquals(2, BoundedYaml.firstLongLine(fits + "\r\n" + fits + "a"));
    }

    @Test
    void nestingBeyondTheDepthBoundIsRefusedByTheParser() throws Exception {
        int depth = BoundedYaml.MAX_DEPTH + 8;
        String deep = "name: " + "[".repeat(depth) + "]".repeat(depth) + "\n";
        Blocker b = refusal(Files.writeString(dir.resolve("deep.yaml"), deep));
        assertEquals("manifest.too_large", b.code());
        assertTrue(b.message().contains(BoundedYaml.MAX_DEPTH + " levels of nesting"), b.message());
    }

    @Test
    void withinTheBoundsAParserRefusalKeepsItsOwnCode() throws Exception {
        assertEquals("manifest.wrong_type", refusal(Files.writeString(dir.resolve("list.yaml"), "- a\n- b\n")).code());
        assertEquals("manifest.invalid_yaml", refusal(Files.writeString(dir.resolve("bad.yaml"), "a: [\n")).code());
        assertEquals("manifest.invalid_yaml", refusal(Files.writeString(dir.resolve("dup.yaml"), "a: 1\na: 2\n")).code());
    }

    @Test
    void everyUnknownKeyOfAWideManifestIsReportedOnce() throws Exception {
        StringBuilder wide = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            wide.append("k").append(i).append(": 1\n");
        }
        List<Blocker> blockers = assertThrows(DponeException.class,
            () -> ManifestLoader.load(Files.writeString(dir.resolve("wide.yaml"), wide))).blockers();
        assertEquals(20_000, blockers.stream().filter(b -> b.code().equals("manifest.unknown_key")).count());
        assertEquals(blockers.size(), blockers.stream().map(b -> b.code() + "@" + b.subject()).distinct().count());
    }
}
