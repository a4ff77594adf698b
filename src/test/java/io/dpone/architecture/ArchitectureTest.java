package io.dpone.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

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
    /** Top to bottom: a package may use only the packages below it. Sub-packages belong to their top package. */
    static final List<String[]> LAYERS = List.of(
        new String[] {"cli", "io.dpone.cli.."},
        new String[] {"api", "io.dpone"},
        new String[] {"demo", "io.dpone.demo.."},
        new String[] {"serve", "io.dpone.serve.."},
        new String[] {"cdc", "io.dpone.cdc.."},
        new String[] {"certify", "io.dpone.certify.."},
        new String[] {"route", "io.dpone.route.."},
        new String[] {"publication", "io.dpone.publication.."},
        new String[] {"format", "io.dpone.format.."},
        new String[] {"clickhouse", "io.dpone.clickhouse.."},
        new String[] {"quality", "io.dpone.quality.."},
        new String[] {"storage", "io.dpone.storage.."},
        new String[] {"source", "io.dpone.source.."},
        new String[] {"report", "io.dpone.report.."},
        new String[] {"watchdog", "io.dpone.watchdog.."},
        new String[] {"manifest", "io.dpone.manifest.."},
        new String[] {"connect", "io.dpone.connect.."},
        new String[] {"error", "io.dpone.error.."});

    static JavaClasses classes;

    @BeforeAll
    static void load() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.dpone");
    }

    @Test
    void noPackageCycles() {
        slices().matching("io.dpone.(**)").should().beFreeOfCycles().check(classes);
    }

    @Test
    void dependenciesPointDownTheLayers() {
        LayeredArchitecture architecture = layeredArchitecture().consideringOnlyDependenciesInLayers();
        for (String[] layer : LAYERS) {
            architecture = architecture.layer(layer[0]).definedBy(layer[1]);
        }
        List<String> above = new ArrayList<>();
        for (String[] layer : LAYERS) {
            architecture = above.isEmpty()
                ? architecture.whereLayer(layer[0]).mayNotBeAccessedByAnyLayer()
                : architecture.whereLayer(layer[0]).mayOnlyBeAccessedByLayers(above.toArray(new String[0]));
            above.add(layer[0]);
        }
        architecture.check(classes);
    }

    /** State that travels between steps changes through methods only (issue 16: no public mutable field). */
    @Test
    void noPublicMutableField() {
        fields().that().arePublic().should().beFinal()
            .because("a step's changes to shared state must be visible in its method calls").check(classes);
    }
}
