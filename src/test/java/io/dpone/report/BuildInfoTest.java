package io.dpone.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BuildInfoTest {
    /** The build baked the checkout's HEAD into the classes (this test runs from a git checkout or a plain tree). */
    @Test
    void theBuildCommitIsTheCheckoutsHead() throws Exception {
        String commit = BuildInfo.commit();
        if (!Files.exists(Path.of(".git"))) {
            assertEquals(BuildInfo.UNKNOWN, commit, "outside a git checkout");
            return;
        }
        Process git = new ProcessBuilder("git", "rev-parse", "HEAD").redirectErrorStream(true).start();
        String head = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(git.waitFor(30, TimeUnit.SECONDS));
        assertTrue(commit.equals(head) || commit.equals(head + "-dirty"), commit + " is not HEAD " + head);
    }

    @Test
    void onlyACommitShapedValueIsBelieved() throws Exception {
        String sha = "0123456789abcdef0123456789abcdef01234567";
        assertEquals(sha, BuildInfo.parse(in("commit=" + sha + "\n")));
        assertEquals(sha + "-dirty", BuildInfo.parse(in("commit=" + sha + "-dirty\n")));
        assertEquals(BuildInfo.UNKNOWN, BuildInfo.parse(in("commit=unknown\n")));
        assertEquals(BuildInfo.UNKNOWN, BuildInfo.parse(in("commit=${dpone.git.head}\n")));
        assertEquals(BuildInfo.UNKNOWN, BuildInfo.parse(null));
    }

    private static ByteArrayInputStream in(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.ISO_8859_1));
    }
}
