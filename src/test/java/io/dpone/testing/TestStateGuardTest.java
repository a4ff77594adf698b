package io.dpone.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.connect.EmbeddedDefaults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The guard of "tests never touch the invoking user's state" (docs/testing.md, "Tests keep to target/"). Ordered
 * last in the test JVM (junit-platform.properties): it fails the build when any test before it added, changed or
 * removed anything in the invoking user's {@code DPONE_HOME}, in {@code ~/.cache/dpone} beside the chDB cache, or
 * added a project-named entry to {@code /tmp}; and when the JVM itself is not isolated as pom.xml configures it.
 */
@Order(Integer.MAX_VALUE)
class TestStateGuardTest {
    private static final Path TARGET = Path.of("target").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    @Test
    void theTestJvmHasItsOwnHomeAndTemporaryDirectoryUnderTarget() {
        Path home = EmbeddedDefaults.home().toAbsolutePath().normalize();
        Path tmp = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().normalize();
        assertTrue(home.startsWith(TARGET), "DPONE_HOME of the tests is " + home + ", not under target/ (pom.xml)");
        assertTrue(tmp.startsWith(TARGET), "java.io.tmpdir of the tests is " + tmp + ", not under target/ (pom.xml)");
        assertTrue(dir.startsWith(TARGET), "@TempDir directories are under target/: " + dir);
        assertTrue(Path.of(System.getenv().getOrDefault("TMPDIR", "/tmp")).toAbsolutePath().normalize()
            .startsWith(TARGET), "TMPDIR of child processes is under target/");
        assertNull(System.getenv("DPONE_RUNTIME_CONNECTION_CONTEXT"), "the user's connection context is not the tests'");
        assertTrue(ChildJvm.tmpdir().endsWith(tmp.toString()), "child JVMs get the same temporary directory");
        assertFalse(TestStateGuard.invokerHome().startsWith(home) && !home.equals(TestStateGuard.invokerHome()),
            "the invoking user's home is not inside the tests' one");
    }

    @Test
    void noTestTouchedTheInvokingUsersStateOrTmp() {
        List<String> changes = TestStateGuard.snapshot().changesSince(TestStateGuard.before());
        String foreign = TestStateGuard.foreignBuild();
        if (!changes.isEmpty() && foreign != null) {
            // the places are shared by every build of this user; strict whenever this build ran alone (CI)
            System.err.println("TestStateGuardTest: WARNING, the invoking user's state changed during the tests, "
                + "but a build of another checkout ran at the same time and may have made the change: " + changes
                + "; other build: " + foreign);
            return;
        }
        assertEquals(List.of(), changes, "tests touched the invoking user's state (" + TestStateGuard.invokerHome()
            + ", ~/.cache/dpone beside chdb/, /tmp): every test keeps to its @TempDir, target/test-home and "
            + "target/test-tmp; child JVMs take ChildJvm's options");
    }

    /** The comparison itself: an added, a changed and a removed entry are each reported. */
    @Test
    void theComparisonSeesAdditionsChangesAndRemovals() {
        TestStateGuard.Snapshot earlier = new TestStateGuard.Snapshot(Map.of("/h/runs/a", 1L, "/h/runs/b", 2L));
        TestStateGuard.Snapshot later = new TestStateGuard.Snapshot(Map.of("/h/runs/a", 5L, "/h/runs/c", 3L));
        assertEquals(List.of("modified /h/runs/a", "added /h/runs/c", "removed /h/runs/b"),
            later.changesSince(earlier).stream().sorted((x, y) -> order(x) - order(y)).toList());
        assertEquals(List.of(), earlier.changesSince(earlier));
    }

    private static int order(String change) {
        return change.startsWith("modified") ? 0 : change.startsWith("added") ? 1 : 2;
    }

    /** A file written to the watched home after the snapshot is seen (the guard can fail). */
    @Test
    void aWriteIntoTheWatchedHomeIsSeen() throws Exception {
        Path watched = dir.resolve("invoker-home");
        Files.createDirectories(watched.resolve("runs"));
        String saved = System.getProperty("dpone.test.invoker.dpone.home");
        System.setProperty("dpone.test.invoker.dpone.home", watched.toString());
        try {
            TestStateGuard.Snapshot earlier = TestStateGuard.snapshot();
            Files.writeString(watched.resolve("runs/journal.json"), "{}");
            assertTrue(TestStateGuard.snapshot().changesSince(earlier).contains("added "
                + watched.resolve("runs/journal.json")));
        } finally {
            if (saved == null) {
                System.clearProperty("dpone.test.invoker.dpone.home");
            } else {
                System.setProperty("dpone.test.invoker.dpone.home", saved);
            }
        }
    }
}
