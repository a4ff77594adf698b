package io.dpone.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * The {@code process} test tier: a test class that starts child processes (a child JVM through {@link ChildJvm},
 * {@code bin/dpone}, a {@code dev/} script, a twin process). Left out by {@code ./mvnw verify -Pfast};
 * {@link TestTiersTest} fails when such a class is not marked (docs/testing.md, "Test tiers").
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@Tag("process")
public @interface ProcessTest {
}
