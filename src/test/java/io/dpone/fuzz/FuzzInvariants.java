package io.dpone.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.error.BlockerCode;
import io.dpone.testing.CliRun;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What every fuzz case must show, whatever its input: exit code 0 or 1 (a file problem is never a usage error and
 * never a crash), a refusal as a typed document whose every blocker code is a registered {@link BlockerCode} and
 * none {@code internal_error}, no stack trace, no absolute path of the case's directory and no planted secret on
 * stdout or stderr.
 */
final class FuzzInvariants {
    static final Set<String> KNOWN = Arrays.stream(BlockerCode.values()).map(BlockerCode::code)
        .collect(Collectors.toUnmodifiableSet());
    private static final ObjectMapper JSON = new ObjectMapper();

    private FuzzInvariants() {
    }

    /** The run seed: {@code -Ddpone.fuzz.seed=...} to reproduce a run, else a fixed one (CI runs are repeatable). */
    static long seed() {
        return Long.getLong("dpone.fuzz.seed", 20261203L);
    }

    /** The number of cases of a kind: its default times {@code -Ddpone.fuzz.scale=...} (default 1). */
    static int cases(int defaultCases) {
        return (int) Math.max(1, Math.round(defaultCases * Double.parseDouble(System.getProperty("dpone.fuzz.scale",
            "1"))));
    }

    /**
     * A secret of two random halves joined by a space or a letter; a half printed anywhere is a leak (redaction that
     * stops at a space would print the first half only).
     */
    static String secret(Random random) {
        return "Zq" + word(random) + (random.nextBoolean() ? " " : "x") + "Kv" + word(random);
    }

    static List<String> halves(String secret) {
        return List.of(secret.substring(0, 10), secret.substring(11));
    }

    private static String word(Random random) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            sb.append((char) ('a' + random.nextInt(26)));
        }
        return sb.toString();
    }

    /** Checks the run's channels and returns its blocker codes (empty when it passed). */
    static List<String> check(FuzzCase c, CliRun run, Path caseDir, long seed, String... moreOutput) {
        String what = c.describe(seed) + " (bytes in target/fuzz/failures)";
        String both = run.stdout() + "\n" + run.stderr() + "\n" + String.join("\n", moreOutput);
        assertTrue(run.exitCode() == 0 || run.exitCode() == 1, () -> what + ": exit " + run.exitCode() + "\n"
            + clip(run.stderr()));
        for (String trace : List.of("\tat ", "Exception:", "Caused by:", "Error:")) {
            assertFalse(both.contains(trace), () -> what + ": stack trace text '" + trace + "' in\n" + clip(both));
        }
        String abs = caseDir.toAbsolutePath().toString();
        assertFalse(both.contains(abs), () -> what + ": the case directory's absolute path in\n" + clip(both));
        if (c.secret() != null) {
            for (String half : halves(c.secret())) {
                assertFalse(both.contains(half), () -> what + ": the planted secret in\n" + clip(both));
            }
        }
        if (run.exitCode() == 0) {
            assertTrue(document(what, run.stdout()).path("passed").asBoolean(), what + ": exit 0 without passed");
            return List.of();
        }
        JsonNode doc = document(what, run.stderr());
        assertFalse(doc.path("passed").asBoolean(true), what + ": exit 1 with passed");
        List<String> codes = new ArrayList<>();
        doc.path("blockers").forEach(b -> codes.add(b.path("code").asText()));
        assertFalse(codes.isEmpty(), () -> what + ": a refusal without a blocker\n" + clip(run.stderr()));
        for (String code : codes) {
            assertTrue(KNOWN.contains(code), () -> what + ": unregistered code " + code);
            assertFalse(code.equals(BlockerCode.INTERNAL_ERROR.code()), () -> what + ": a crash\n"
                + clip(run.stderr()));
        }
        return codes;
    }

    private static JsonNode document(String what, String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            fail(what + ": output is not one JSON document:\n" + clip(text));
            return null;
        }
    }

    /** Writes a failing case's bytes to {@code target/fuzz/failures/<kind>-<index>.bin}. */
    static void save(FuzzCase c) {
        try {
            Path d = Path.of("target", "fuzz", "failures");
            java.nio.file.Files.createDirectories(d);
            java.nio.file.Files.write(d.resolve(c.kind() + "-" + c.index() + ".bin"), c.bytes());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static String clip(String s) {
        return s.length() <= 4000 ? s : s.substring(0, 4000) + "...";
    }

    /** Reads a file's bytes, or null when it does not exist. */
    static byte[] bytes(Path file) {
        try {
            return java.nio.file.Files.exists(file) ? java.nio.file.Files.readAllBytes(file) : null;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static void assertSame(String what, byte[] before, byte[] after) {
        assertEquals(before == null, after == null, what);
        if (before != null) {
            assertTrue(Arrays.equals(before, after), what);
        }
    }
}
