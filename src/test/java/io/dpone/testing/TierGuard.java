package io.dpone.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The run-time half of the test tiers' guard ({@link TestTiersTest} is the static one): a top-level test class
 * tagged neither {@code engine} nor {@code process} during which chDB's library was loaded into this JVM (read from
 * {@code /proc/self/maps}) fails, naming the tag it needs. The production code a test calls may open the engine
 * without the test naming it. Once an engine class has loaded it, later classes cannot be told apart, so this is
 * strict in {@code ./mvnw verify -Pfast}, where no engine class runs. Registered for every class through
 * META-INF/services and junit-platform.properties.
 */
public final class TierGuard implements BeforeAllCallback, AfterAllCallback {
    private static final Path MAPS = Path.of("/proc/self/maps");
    private static final Set<String> TIERS = Set.of("engine", "process");
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(TierGuard.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        if (topLevel(context)) {
            context.getStore(NS).put("loaded", chdbLoaded());
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (topLevel(context)) {
            String wrong = violation(context.getRequiredTestClass(),
                Boolean.TRUE.equals(context.getStore(NS).get("loaded", Boolean.class)), chdbLoaded());
            if (wrong != null) {
                throw new AssertionError(wrong);
            }
        }
    }

    /** What is wrong when {@code test} ran while chDB went from {@code before} to {@code after} loaded, or null. */
    static String violation(Class<?> test, boolean before, boolean after) {
        boolean tagged = AnnotationSupport.findRepeatableAnnotations(test, Tag.class).stream()
            .anyMatch(t -> TIERS.contains(t.value()));
        return !before && after && !tagged ? test.getName() + " loaded the embedded engine (chDB) into the test JVM "
            + "but is not tagged: @io.dpone.testing.EngineTest (docs/testing.md, \"Test tiers\")" : null;
    }

    private static boolean topLevel(ExtensionContext context) {
        return context.getTestClass().map(c -> c.getEnclosingClass() == null).orElse(false);
    }

    static boolean chdbLoaded() {
        try {
            return Files.isReadable(MAPS) && Files.readString(MAPS).contains("libchdb");
        } catch (IOException e) {
            return false;
        }
    }
}
