package io.dpone.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * The {@code engine} test tier: a test class that starts the embedded chDB engine, S3Proxy, ZooKeeper or a twin in
 * this JVM (or a Camel context with them). Left out by {@code ./mvnw verify -Pfast}; {@link TestTiersTest} fails
 * when such a class is not marked (docs/testing.md, "Test tiers").
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@Tag("engine")
public @interface EngineTest {
}
