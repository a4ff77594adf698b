package io.dpone.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package structure of docs/architecture.md, enforced: no package depends on itself through others (every
 * package, sub-packages included, is its own slice), and dependencies point down one total layer order.
 */
class ArchitectureTest {
    /**
     * Top to bottom: a package may use only the packages on the levels below its own. Sub-packages belong to their
     * top package. Packages on one level are siblings: neither uses the other ({@code route}, where the full refresh
     * runs, and {@code cdc}, whose hand-over steps it runs, both stand on {@code camel}, the camel-main bootstrap).
     */
    static final List<List<String[]>> LEVELS = List.of(
        List.<String[]>of(new String[] {"cli", "io.dpone.cli.."}),
        List.<String[]>of(new String[] {"api", "io.dpone"}),
        List.<String[]>of(new String[] {"demo", "io.dpone.demo.."}),
        List.<String[]>of(new String[] {"discover", "io.dpone.discover.."}),
        List.<String[]>of(new String[] {"serve", "io.dpone.serve.."}),
        List.<String[]>of(new String[] {"certify", "io.dpone.certify.."}, new String[] {"status", "io.dpone.status.."},
            new String[] {"lineage", "io.dpone.lineage.."}, new String[] {"fleet", "io.dpone.fleet.."}),
        List.<String[]>of(new String[] {"route", "io.dpone.route.."}, new String[] {"cdc", "io.dpone.cdc.."}),
        List.<String[]>of(new String[] {"camel", "io.dpone.camel.."}),
        List.<String[]>of(new String[] {"publication", "io.dpone.publication.."}),
        List.<String[]>of(new String[] {"format", "io.dpone.format.."}),
        List.<String[]>of(new String[] {"clickhouse", "io.dpone.clickhouse.."}),
        List.<String[]>of(new String[] {"quality", "io.dpone.quality.."}),
        List.<String[]>of(new String[] {"storage", "io.dpone.storage.."}),
        List.<String[]>of(new String[] {"source", "io.dpone.source.."}),
        List.<String[]>of(new String[] {"report", "io.dpone.report.."}),
        List.<String[]>of(new String[] {"watchdog", "io.dpone.watchdog.."}),
        List.<String[]>of(new String[] {"manifest", "io.dpone.manifest.."}),
        List.<String[]>of(new String[] {"connect", "io.dpone.connect.."}),
        List.<String[]>of(new String[] {"retry", "io.dpone.retry.."}),
        List.<String[]>of(new String[] {"error", "io.dpone.error.."}));

    static JavaClasses classes;

    @BeforeAll
    static void load() {
        // dpone's own classes only: every rule here is about them and their dependencies on each other. Resolving the
        // libraries they use (Camel, the AWS SDK, ...) from the class path as well tripled the import's time and
        // changes no rule's outcome (a dependency on a library class is known by its name either way)
        ArchConfiguration config = ArchConfiguration.get();
        boolean resolve = config.resolveMissingDependenciesFromClassPath();
        config.setResolveMissingDependenciesFromClassPath(false);
        try {
            classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.dpone");
        } finally {
            config.setResolveMissingDependenciesFromClassPath(resolve);
        }
    }

    @Test
    void noPackageCycles() {
        slices().matching("io.dpone.(**)").should().beFreeOfCycles().check(classes);
    }

    @Test
    void dependenciesPointDownTheLayers() {
        LayeredArchitecture architecture = layeredArchitecture().consideringOnlyDependenciesInLayers();
        for (List<String[]> level : LEVELS) {
            for (String[] layer : level) {
                architecture = architecture.layer(layer[0]).definedBy(layer[1]);
            }
        }
        List<String> above = new ArrayList<>();
        for (List<String[]> level : LEVELS) {
            for (String[] layer : level) {
                architecture = above.isEmpty()
                    ? architecture.whereLayer(layer[0]).mayNotBeAccessedByAnyLayer()
                    : architecture.whereLayer(layer[0]).mayOnlyBeAccessedByLayers(above.toArray(new String[0]));
            }
            level.forEach(layer -> above.add(layer[0]));
        }
        architecture.check(classes);
    }

    /** State that travels between steps changes through methods only (issue 16: no public mutable field). */
    @Test
    void noPublicMutableField() {
        fields().that().arePublic().should().beFinal()
            .because("a step's changes to shared state must be visible in its method calls").check(classes);
    }

    /**
     * Issue 33 item 5: production holds no mutable static state that exists for tests (tests inject through
     * constructors, parameters or the classpath). The static state that remains is the process's own, each named here
     * with its reason.
     */
    @Test
    void noMutableStaticStateButTheProcesssOwn() {
        java.util.Set<String> processState = java.util.Set.of(
            "io.dpone.watchdog.PhaseWatchdog.armed", // the one phase watchdog of this process's run
            "io.dpone.clickhouse.chdb.ChdbConnection.nativeApi", // the chDB library, loaded once per process
            "io.dpone.clickhouse.chdb.ChdbConnection.loadedFrom",
            "io.dpone.clickhouse.chdb.SignalIsolation.stubs"); // the signal stubs chDB gets, installed once
        java.util.List<String> found = new java.util.ArrayList<>();
        for (com.tngtech.archunit.core.domain.JavaClass c : classes) {
            for (com.tngtech.archunit.core.domain.JavaField f : c.getFields()) {
                var m = f.getModifiers();
                if (m.contains(com.tngtech.archunit.core.domain.JavaModifier.STATIC)
                        && !m.contains(com.tngtech.archunit.core.domain.JavaModifier.FINAL)
                        && !m.contains(com.tngtech.archunit.core.domain.JavaModifier.SYNTHETIC)
                        && !processState.contains(c.getName() + "." + f.getName())) {
                    found.add(c.getName() + "." + f.getName());
                }
            }
        }
        org.junit.jupiter.api.Assertions.assertEquals(java.util.List.of(), found);
    }
}
