package io.dpone.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The guard of the test tiers (docs/testing.md, "Test tiers"): a test class that starts a child process must be
 * {@link ProcessTest}, one that starts the embedded engine, S3Proxy, ZooKeeper or a twin in this JVM
 * {@link EngineTest} (or {@link ProcessTest}), so that {@code ./mvnw verify -Pfast} (the untagged classes) stays
 * the fast unit tier.
 *
 * <p>Statically: from every test class, the test code it reaches (its own classes, its superclasses, the helpers it
 * uses, transitively; production code is not followed) is searched for the uses below. At run time,
 * {@link TierGuard} fails an untagged class during which chDB's library was loaded into the test JVM.
 */
class TestTiersTest {
    /** Classes whose use starts a child process. */
    private static final Set<String> PROCESS_CLASSES = Set.of("java.lang.ProcessBuilder");
    /**
     * Test code that runs a short tool, not a child JVM, {@code bin/dpone} or a script: {@code mkfifo}, {@code keytool}
     * once per twin data directory, {@code git rev-parse}. Their use is not the process tier.
     */
    private static final Set<String> SHORT_TOOLS = Set.of("io.dpone.testing.Fifos",
        "io.dpone.testing.mssql.tds.TwinCertificate", "io.dpone.report.BuildInfoTest");
    /** Helpers of which only some members start something: ChildJvm's JAVA and tmpdir() start nothing. */
    private static final Map<String, Set<String>> PROCESS_FREE_MEMBERS = Map.of(
        ChildJvm.class.getName(), Set.of("JAVA", "tmpdir"));
    /** TestEngines' members that start the shared engine (or ZooKeeper); the others are names and H2 URLs. */
    private static final Map<String, Set<String>> ENGINE_MEMBERS = Map.of(
        "io.dpone.testing.TestEngines", Set.of("clickHousePath", "zooKeeper", "clickhouse", "context"));
    /** Classes (or packages, ending in '.') whose use starts an engine, S3Proxy, ZooKeeper or a twin in this JVM. */
    private static final List<String> ENGINE_CLASSES = List.of(
        "io.dpone.clickhouse.EmbeddedClickHouseEndpoint",
        "io.dpone.clickhouse.chdb.ChdbConnection",
        "io.dpone.storage.EmbeddedS3",
        "org.gaul.s3proxy.",
        "org.apache.curator.test.",
        "org.apache.zookeeper.server.",
        "io.dpone.testing.twin.ClickHouseTwin",
        "io.dpone.testing.twin.TwinEngine",
        "io.dpone.testing.mssql.tds.TdsServer");
    private static final Set<String> TEST_ANNOTATIONS = Set.of("org.junit.jupiter.api.Test",
        "org.junit.jupiter.params.ParameterizedTest", "org.junit.jupiter.api.TestFactory",
        "org.junit.jupiter.api.RepeatedTest", "org.junit.jupiter.api.TestTemplate");

    static JavaClasses classes;
    /** A top-level class's nested, inner and anonymous classes. */
    static final Map<String, List<JavaClass>> PARTS = new java.util.HashMap<>();

    @BeforeAll
    static void load() {
        // the test code only: what it uses outside is known by name, which is all the search needs
        ArchConfiguration config = ArchConfiguration.get();
        boolean resolve = config.resolveMissingDependenciesFromClassPath();
        config.setResolveMissingDependenciesFromClassPath(false);
        try {
            classes = new ClassFileImporter().importPath(Path.of(TestTiersTest.class.getProtectionDomain()
                .getCodeSource().getLocation().toURI()));
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        } finally {
            config.setResolveMissingDependenciesFromClassPath(resolve);
        }
        for (JavaClass c : classes) {
            int dollar = c.getName().indexOf('$');
            if (dollar > 0) {
                PARTS.computeIfAbsent(c.getName().substring(0, dollar), k -> new ArrayList<>()).add(c);
            }
        }
    }

    @Test
    void everyClassThatStartsAProcessOrAnEngineIsTagged() {
        List<String> wrong = new ArrayList<>();
        for (JavaClass c : classes) {
            if (!isTestClass(c) || c.getEnclosingClass().isPresent() || c.getSimpleName().endsWith("IT")) {
                // *IT classes run only in failsafe's -Pit, never in a tier
                continue;
            }
            Optional<String> process = firstUse(c, true);
            Optional<String> engine = process.isPresent() ? Optional.empty() : firstUse(c, false);
            boolean processTagged = c.isAnnotatedWith(ProcessTest.class) || inherits(c, ProcessTest.class);
            boolean engineTagged = c.isAnnotatedWith(EngineTest.class) || inherits(c, EngineTest.class);
            if (process.isPresent() && !processTagged) {
                wrong.add(c.getName() + " starts a child process (" + process.get() + "): @ProcessTest");
            } else if (engine.isPresent() && !engineTagged && !processTagged) {
                wrong.add(c.getName() + " starts an engine in this JVM (" + engine.get() + "): @EngineTest");
            }
        }
        wrong.sort(null);
        assertEquals(List.of(), wrong, "untagged test classes (docs/testing.md, \"Test tiers\")");
    }

    @Test
    void theRunTimeGuardFailsAnUntaggedClassThatLoadsTheEngine() {
        assertTrue(TierGuard.violation(TestTiersTest.class, false, true).contains("@io.dpone.testing.EngineTest"));
        assertEquals(null, TierGuard.violation(TestTiersTest.class, true, true), "loaded before: not this class");
        assertEquals(null, TierGuard.violation(TestTiersTest.class, false, false));
        assertEquals(null, TierGuard.violation(EngineTagged.class, false, true), "tagged engine");
        assertEquals(null, TierGuard.violation(ProcessTagged.class, false, true), "tagged process");
        assertEquals(null, TierGuard.violation(Inheriting.class, false, true), "tag inherited from a contract");
    }

    @EngineTest
    static class EngineTagged {
    }

    @ProcessTest
    static class ProcessTagged {
    }

    static class Inheriting extends EngineTagged {
    }

    @Test
    void theGuardSeesWhatItLooksFor() {
        // a guard that finds nothing would pass every build: it must see the known cases
        assertTrue(firstUse(classes.get("io.dpone.watchdog.BoundedCommandTest"), true).orElse("")
            .contains(ChildJvm.class.getName()), "BoundedCommandTest starts child JVMs through ChildJvm");
        assertTrue(firstUse(classes.get("io.dpone.route.TwinFailureTest"), true).orElse("")
            .startsWith("io.dpone.testing.twin.TwinProcess -> "), "a twin process, through the helper that starts it");
        assertTrue(firstUse(classes.get("io.dpone.clickhouse.EmbeddedClickHouseEndpointTest"), false).isPresent(),
            "EmbeddedClickHouseEndpointTest opens the embedded engine");
        assertEquals(Optional.empty(), firstUse(classes.get(TestStateGuardTest.class), true),
            "ChildJvm.tmpdir() starts no process");
        assertEquals(Optional.empty(), firstUse(classes.get("io.dpone.cdc.mssql.SqlServerCdcReaderContractTest"),
            false), "an H2 database is not an engine");
    }

    private static boolean inherits(JavaClass c, Class<? extends java.lang.annotation.Annotation> tag) {
        return c.getAllRawSuperclasses().stream().anyMatch(s -> s.isAnnotatedWith(tag));
    }

    private static boolean isTestClass(JavaClass c) {
        if (c.getModifiers().contains(JavaModifier.ABSTRACT) || c.isInterface()) {
            return false;
        }
        List<JavaClass> hierarchy = new ArrayList<>(List.of(c));
        hierarchy.addAll(c.getAllRawSuperclasses());
        hierarchy.addAll(c.getAllRawInterfaces());
        for (JavaClass h : hierarchy) {
            boolean test = h.getMethods().stream().anyMatch(m -> m.getAnnotations().stream()
                .anyMatch(a -> TEST_ANNOTATIONS.contains(a.getRawType().getName())));
            if (test) {
                return true;
            }
        }
        // a class whose @Nested classes hold the tests
        return PARTS.getOrDefault(c.getName(), List.of()).stream().anyMatch(n -> n.getEnclosingClass()
            .map(c::equals).orElse(false) && n.isAnnotatedWith("org.junit.jupiter.api.Nested") && isTestClass(n));
    }

    /** The first use of a process (or engine) class in the test code {@code start} reaches, as "user -> used". */
    static Optional<String> firstUse(JavaClass start, boolean process) {
        Set<JavaClass> seen = new HashSet<>();
        Deque<JavaClass> todo = new ArrayDeque<>();
        todo.add(start);
        // its nested, inner and anonymous classes are part of it
        todo.addAll(PARTS.getOrDefault(start.getName(), List.of()));
        Set<String> found = new TreeSet<>();
        while (!todo.isEmpty()) {
            JavaClass c = todo.poll();
            if (!seen.add(c) || process && SHORT_TOOLS.contains(c.getName())) {
                continue;
            }
            for (JavaAccess<?> a : c.getAccessesFromSelf()) {
                String owner = a.getTargetOwner().getName();
                String member = a.getTarget().getName();
                if (process && PROCESS_FREE_MEMBERS.containsKey(owner) && !owner.equals(c.getName())
                    && !PROCESS_FREE_MEMBERS.get(owner).contains(member)
                    || !process && ENGINE_MEMBERS.getOrDefault(owner, Set.of()).contains(member)) {
                    found.add(c.getName() + " -> " + owner + "." + member);
                }
            }
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String name = d.getTargetClass().getName();
                if (process ? PROCESS_CLASSES.contains(name) : ENGINE_CLASSES.stream().anyMatch(name::startsWith)) {
                    found.add(c.getName() + " -> " + name);
                } else if (classes.contain(name) && !PROCESS_FREE_MEMBERS.containsKey(name)
                    && !ENGINE_MEMBERS.containsKey(name)) {
                    todo.add(classes.get(name));
                }
            }
        }
        return found.stream().findFirst();
    }
}
