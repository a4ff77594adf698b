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

    /** The version is the pom's own project version (0.1.0-SNAPSHOT while developing), not a hard-coded one. */
    @Test
    void theBuildVersionIsThePomsProjectVersion() throws Exception {
        String pom = Files.readString(Path.of("pom.xml"));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
            "<artifactId>dpone</artifactId>\\s*<version>([^<]+)</version>").matcher(pom);
        assertTrue(m.find() && m.group(1) != null, "pom.xml names its version after the artifactId");
        assertEquals(m.group(1), BuildInfo.version());
        assertEquals("dpone " + m.group(1) + " (commit " + BuildInfo.commit() + ")",
            new io.dpone.cli.DponeCli.BuildVersion().getVersion()[0]);
    }

    @Test
    void onlyAVersionShapedValueIsBelieved() throws Exception {
        assertEquals("0.1.0-SNAPSHOT", BuildInfo.version(BuildInfo.read(in("version=0.1.0-SNAPSHOT\n"))));
        assertEquals(BuildInfo.UNKNOWN, BuildInfo.version(BuildInfo.read(in("version=${project.version}\n"))));
        assertEquals(BuildInfo.UNKNOWN, BuildInfo.version(BuildInfo.read(null)));
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
