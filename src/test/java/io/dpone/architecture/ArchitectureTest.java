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

    /**
     * Issue 33 item 4: the packages that reach ClickHouse through the typed operations only
     * ({@code ClickHouseEndpoint.operations()}); the SQL is built in {@code io.dpone.clickhouse}. A package leaves this
     * list never; one joins it once its callers are migrated. {@code publication} with every sub-package is here: its
     * cluster DDL, member statements and KeeperMap fence are the typed operations of {@code io.dpone.clickhouse.cluster}.
     * {@code cdc.verify} reads and repairs serving datasets, and {@code cdc.clickhouse} writes the CDC log, the
     * checkpoints and the serving tables, through {@code io.dpone.clickhouse.cdc}; {@code cdc} itself, {@code
     * cdc.runtime}, {@code cdc.local}, {@code cdc.handover} and {@code cdc.bundle} (whose sink checks are {@code
     * clickhouse.cdc.SinkGrants}, its source catalogue statements {@code source.SqlServerCatalogSql}) reach ClickHouse
     * only through those. Not here: {@code source}, {@code demo} and {@code cdc.mssql} hold SQL Server SQL, the source
     * dialect's.
     */
    static final List<String> TYPED_CLICKHOUSE = List.of("io.dpone", "io.dpone.cli",
        "io.dpone.discover", "io.dpone.fleet", "io.dpone.serve", "io.dpone.certify", "io.dpone.status",
        "io.dpone.lineage", "io.dpone.route", "io.dpone.camel", "io.dpone.publication", "io.dpone.cdc",
        "io.dpone.cdc.verify", "io.dpone.cdc.clickhouse", "io.dpone.cdc.runtime", "io.dpone.cdc.local",
        "io.dpone.cdc.handover", "io.dpone.cdc.bundle");

    /** Entries that hold their own package only (their sub-packages are listed, or not, on their own). */
    private static final java.util.Set<String> WITHOUT_SUBPACKAGES = java.util.Set.of("io.dpone", "io.dpone.cdc");

    private static boolean typedPackage(String pkg) {
        return TYPED_CLICKHOUSE.stream().anyMatch(p -> WITHOUT_SUBPACKAGES.contains(p) ? pkg.equals(p)
            : pkg.equals(p) || pkg.startsWith(p + "."));
    }

    /** No class of a migrated package calls the endpoint's low-level SQL methods or quotes SQL itself. */
    @Test
    void migratedPackagesCallNoLowLevelClickHouseSql() {
        java.util.Set<String> lowLevel = java.util.Set.of("execute", "query", "insertFile");
        List<String> found = new ArrayList<>();
        for (com.tngtech.archunit.core.domain.JavaClass c : classes) {
            if (!typedPackage(c.getPackageName())) {
                continue;
            }
            for (com.tngtech.archunit.core.domain.JavaMethodCall call : c.getMethodCallsFromSelf()) {
                var owner = call.getTargetOwner();
                if (lowLevel.contains(call.getName())
                        && owner.isAssignableTo(io.dpone.clickhouse.ClickHouseEndpoint.class)) {
                    found.add(c.getName() + " calls " + owner.getSimpleName() + "." + call.getName());
                }
            }
            c.getDirectDependenciesFromSelf().stream()
                .filter(d -> d.getTargetClass().getName().equals(io.dpone.clickhouse.ClickHouseSql.class.getName()))
                .findFirst().ifPresent(d -> found.add(c.getName() + " uses ClickHouseSql"));
        }
        org.junit.jupiter.api.Assertions.assertEquals(List.of(), found);
    }

    /**
     * DESIGN: interfaces are small (at most five methods). Held for the ClickHouse operations layer
     * ({@code io.dpone.clickhouse}): {@code ClickHouseOperations} only composes its roles. The JNA bindings of
     * {@code clickhouse.chdb} mirror the C library's functions and are not held to it.
     */
    @Test
    void clickHouseInterfacesHaveAtMostFiveMethods() {
        List<String> found = new ArrayList<>();
        for (com.tngtech.archunit.core.domain.JavaClass c : classes) {
            if (!c.isInterface() || !c.getPackageName().equals("io.dpone.clickhouse")) {
                continue;
            }
            long abstractMethods = c.getMethods().stream()
                .filter(m -> m.getModifiers().contains(com.tngtech.archunit.core.domain.JavaModifier.ABSTRACT)).count();
            if (abstractMethods > 5) {
                found.add(c.getName() + " declares " + abstractMethods + " methods");
            }
        }
        org.junit.jupiter.api.Assertions.assertEquals(List.of(), found);
    }

    /** A string literal that is (or starts) a ClickHouse statement, or is a clause of one. */
    static final java.util.regex.Pattern CLICKHOUSE_SQL = java.util.regex.Pattern.compile(
        "^\\s*(SELECT|WITH|INSERT\\s+INTO|CREATE\\s+(TABLE|DATABASE|NAMED|VIEW|MATERIALIZED)|DROP\\s+(TABLE|DATABASE"
            + "|NAMED|VIEW)|ALTER\\s+TABLE|EXCHANGE\\s+TABLES|RENAME\\s+TABLE|SYSTEM\\s+[A-Z]+|OPTIMIZE\\s+TABLE"
            + "|TRUNCATE|FROM|WHERE|SETTINGS|ENGINE\\s*=|ORDER\\s+BY|GROUP\\s+BY|AND|OR)\\s"
            + "|\\bFROM\\s+(system\\.|s3\\(|s3Cluster\\(|file\\(|input\\()|\\bENGINE\\s*=\\s*[A-Z]");

    /** No string literal of a migrated package's sources is ClickHouse SQL (comments are not read). */
    @Test
    void migratedPackagesHoldNoClickHouseSqlLiterals() throws java.io.IOException {
        List<String> found = new ArrayList<>();
        java.nio.file.Path root = java.nio.file.Path.of("src/main/java");
        try (var files = java.nio.file.Files.walk(root.resolve("io/dpone"))) {
            for (java.nio.file.Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String pkg = root.relativize(f.getParent()).toString().replace(java.io.File.separatorChar, '.');
                if (!typedPackage(pkg)) {
                    continue;
                }
                for (String literal : JavaLiterals.strings(java.nio.file.Files.readString(f))) {
                    if (CLICKHOUSE_SQL.matcher(literal).find()) {
                        found.add(root.relativize(f) + ": \"" + literal + "\"");
                    }
                }
            }
        }
        org.junit.jupiter.api.Assertions.assertEquals(List.of(), found);
    }

    /** The scan sees SQL where it is and none in comments, text or a literal that only mentions a keyword. */
    @Test
    void theLiteralScanFindsSqlAndOnlySql() {
        String source = "class A { // \"SELECT 1\"\n /* \"DROP TABLE x\" */ String a = \"SELECT count() FROM \" + t;"
            + " String b = \" FROM system.tables\"; String c = \"1 when the alias answers SELECT 1\";"
            + " String d = \"http://x\"; char q = '\"'; String e = \"EXCHANGE TABLES \"; String f = \" WHERE a = \"; }";
        List<String> hits = JavaLiterals.strings(source).stream().filter(l -> CLICKHOUSE_SQL.matcher(l).find()).toList();
        org.junit.jupiter.api.Assertions.assertEquals(List.of("SELECT count() FROM ", " FROM system.tables",
            "EXCHANGE TABLES ", " WHERE a = "), hits);
    }
}
