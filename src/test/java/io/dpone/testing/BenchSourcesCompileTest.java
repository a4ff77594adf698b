package io.dpone.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benches under {@code bench/} are single-file Java programs run against the main and test classes
 * ({@code java -cp ... bench/X.java}); Maven never compiles them, so an API change can break one unnoticed until
 * someone needs its figures. This compiles every one against the test classpath and fails naming the errors.
 */
class BenchSourcesCompileTest {
    @TempDir
    Path out;

    @Test
    void everyBenchSourceCompilesAgainstTheCurrentClasses() throws Exception {
        List<Path> sources;
        try (Stream<Path> files = Files.list(Path.of("bench"))) {
            sources = files.filter(p -> p.getFileName().toString().endsWith(".java")).sorted().toList();
        }
        assertFalse(sources.isEmpty(), "bench/ holds the benches' Java sources");
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter errors = new StringWriter();
        var files = javac.getStandardFileManager(null, null, null)
            .getJavaFileObjects(sources.stream().map(Path::toFile).toArray(java.io.File[]::new));
        Boolean ok = javac.getTask(errors, null, null, List.of("-nowarn", "-proc:none", "-d", out.toString(), "-cp",
            System.getProperty("java.class.path")), null, files).call();
        assertEquals("", ok ? "" : errors.toString(), "a bench source does not compile");
    }
}
