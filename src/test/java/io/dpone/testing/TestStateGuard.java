package io.dpone.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Tests never touch the invoking user's state (docs/testing.md, "Tests keep to target/"). Registered as a launcher
 * session listener (META-INF/services), it records, before the first test of a test JVM runs, what the invoking
 * user's state holds: their {@code DPONE_HOME} (the value the build was started with, or
 * {@code ~/.cache/dpone/embedded}) file by file with modification times, {@code ~/.cache/dpone} apart from the chDB
 * library cache {@code chdb/} (a legitimate shared cache), and the entries of {@code /tmp} whose names are this
 * project's or its tools' ({@link #TMP_PREFIXES}). {@code TestStateGuardTest}, ordered last, compares.
 */
public final class TestStateGuard implements LauncherSessionListener {
    /** Names of {@code /tmp} entries the product, its tests and their libraries create when pointed there. */
    static final List<String> TMP_PREFIXES = List.of("dpone", "junit", "pack-", "chdb", "ch-twin", "jna",
        "twin-", "handover", "parquet");
    private static final int MAX_ENTRIES = 200_000;
    private static volatile Snapshot before;
    /** A build of another checkout seen running during this session (it may write to the same shared places). */
    private static volatile String foreignBuild;

    /** What the watched places held: path to modification time (millis). */
    public record Snapshot(Map<String, Long> entries) {
        /** Entries added or modified since {@code earlier}, and entries removed. */
        public List<String> changesSince(Snapshot earlier) {
            List<String> changes = new ArrayList<>();
            entries.forEach((path, time) -> {
                Long was = earlier.entries.get(path);
                if (was == null) {
                    changes.add("added " + path);
                } else if (!was.equals(time)) {
                    changes.add("modified " + path);
                }
            });
            // a /tmp entry that went away is someone cleaning up their own; in the user's home it is a loss
            earlier.entries.keySet().stream().filter(p -> !entries.containsKey(p) && !p.startsWith("/tmp/"))
                .forEach(p -> changes.add("removed " + p));
            return changes;
        }
    }

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        try {
            Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (before == null) {
            before = snapshot();
            Thread watcher = new Thread(TestStateGuard::watchForeignBuilds, "dpone-test-state-guard");
            watcher.setDaemon(true);
            watcher.start();
        }
    }

    /**
     * The Maven or surefire process of another checkout seen alive during this session, or null. The user's home
     * and {@code /tmp} are shared by every build on the machine (one user runs several checkouts here), so a change
     * seen while such a build ran may be that build's; the guard then warns instead of failing.
     */
    public static String foreignBuild() {
        return foreignBuild != null ? foreignBuild : foreignBuildNow();
    }

    private static void watchForeignBuilds() {
        while (foreignBuild == null) {
            foreignBuild = foreignBuildNow();
            try {
                Thread.sleep(2_000); // how often the background watch looks for other builds
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static String foreignBuildNow() {
        String project = Path.of("").toAbsolutePath().normalize().toString();
        java.util.Set<Long> mine = new java.util.HashSet<>();
        for (ProcessHandle p = ProcessHandle.current(); p != null; p = p.parent().orElse(null)) {
            mine.add(p.pid());
        }
        return ProcessHandle.allProcesses().filter(p -> !mine.contains(p.pid()))
            .map(p -> p.info().commandLine().orElse(""))
            .filter(c -> (c.contains("surefire") || c.contains("maven.multiModuleProjectDirectory")
                || c.contains("failsafe")) && !c.contains(project + "/") && !c.endsWith(project))
            .findFirst().map(c -> c.length() > 160 ? c.substring(0, 160) + "..." : c).orElse(null);
    }

    /** The snapshot taken when this JVM's launcher session opened (now, when there was none). */
    public static synchronized Snapshot before() {
        if (before == null) {
            before = snapshot();
        }
        return before;
    }

    /** The invoking user's {@code DPONE_HOME}: as the build was started ({@code ${env.DPONE_HOME}}) or the default. */
    public static Path invokerHome() {
        String configured = System.getProperty("dpone.test.invoker.dpone.home", "");
        return configured.isBlank() || configured.startsWith("${")
            ? userCache().resolve("embedded") : Path.of(configured).toAbsolutePath().normalize();
    }

    static Path userCache() {
        return Path.of(System.getProperty("user.home"), ".cache", "dpone");
    }

    /** Reads the watched places now. */
    public static Snapshot snapshot() {
        Map<String, Long> entries = new TreeMap<>();
        Path tests = Path.of(System.getenv().getOrDefault("DPONE_HOME", "")).toAbsolutePath().normalize();
        Path home = invokerHome();
        if (!home.equals(tests)) {
            walk(home, entries);
        }
        Path cache = userCache();
        list(cache, entries, name -> !name.equals("chdb") && !cache.resolve(name).equals(home));
        list(Path.of("/tmp"), entries, name -> TMP_PREFIXES.stream().anyMatch(name::startsWith));
        return new Snapshot(entries);
    }

    private static void walk(Path root, Map<String, Long> entries) {
        if (!Files.isDirectory(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.limit(MAX_ENTRIES).forEach(p -> entries.put(p.toString(), modified(p)));
        } catch (IOException | UncheckedIOException e) {
            entries.put(root + " (unreadable)", 0L);
        }
    }

    private static void list(Path dir, Map<String, Long> entries, java.util.function.Predicate<String> watched) {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.list(dir)) {
            // only additions and removals count here: a shared directory's time changes with anyone's use
            paths.filter(p -> watched.test(p.getFileName().toString())).forEach(p -> entries.put(p.toString(), 0L));
        } catch (IOException | UncheckedIOException e) {
            entries.put(dir + " (unreadable)", 0L);
        }
    }

    private static long modified(Path p) {
        try {
            return Files.getLastModifiedTime(p, java.nio.file.LinkOption.NOFOLLOW_LINKS).toMillis();
        } catch (IOException e) {
            return -1L;
        }
    }
}
