package io.dpone.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/dpone's class-data archive, on a real layout (bin/dpone, target/dpone-*.jar made of the compiled classes,
 * target/lib linking the dependencies): the first run records the archive and renames it into place, later runs use
 * it, and neither an archive nor an unusable one ever adds a byte to stdout (where --format json goes).
 */
class LauncherCdsTest {
    @TempDir
    Path app;
    private Path jsa;

    @BeforeEach
    void layout() throws IOException {
        Files.createDirectories(app.resolve("bin"));
        Files.copy(Path.of("bin/dpone"), app.resolve("bin/dpone"));
        app.resolve("bin/dpone").toFile().setExecutable(true);
        Path lib = Files.createDirectories(app.resolve("target/lib"));
        Path jar = app.resolve("target/dpone-0.0.0-test.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            Path classes = Path.of("target/classes");
            Files.walkFileTree(classes, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) throws IOException {
                    out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace(File.separatorChar, '/')));
                    Files.copy(f, out);
                    out.closeEntry();
                    return FileVisitResult.CONTINUE;
                }
            });
        }
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path p = Path.of(entry);
            if (entry.endsWith(".jar") && Files.isRegularFile(p)) {
                Files.createSymbolicLink(lib.resolve(p.getFileName()), p.toAbsolutePath());
            }
        }
        jsa = app.resolve("target/dpone-0.0.0-test.jsa");
    }

    private record Run(int exit, String stdout) {
    }

    private Run dpone(Map<String, String> env, String... args) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(Stream.concat(Stream.of(app.resolve("bin/dpone").toString()),
            Stream.of(args)).toList());
        pb.environment().remove("DPONE_JAVA_OPTS");
        pb.environment().remove("DPONE_CDS");
        pb.environment().putAll(env);
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "bin/dpone finished");
        return new Run(p.exitValue(), out);
    }

    private List<Path> leftovers() throws IOException {
        try (Stream<Path> s = Files.list(app.resolve("target"))) {
            return s.filter(f -> f.getFileName().toString().endsWith(".tmp")).toList();
        }
    }

    @Test
    void theFirstRunRecordsTheArchiveAndLaterRunsUseItWithCleanStdout() throws Exception {
        Run first = dpone(Map.of(), "--version");
        assertEquals(new Run(0, "dpone 0.1.0\n"), first);
        assertTrue(Files.size(jsa) > 0, "the archive was recorded");
        assertEquals(List.of(), leftovers());
        FileTime recorded = Files.getLastModifiedTime(jsa);

        Path classLog = app.resolve("classes.log");
        assertEquals(new Run(0, "dpone 0.1.0\n"), dpone(Map.of("DPONE_JAVA_OPTS",
            "-Xmx256m -Xlog:class+load=info:file=" + classLog), "--version"));
        assertEquals(recorded, Files.getLastModifiedTime(jsa), "a current archive is not recorded again");
        assertTrue(Files.readString(classLog).contains("io.dpone.cli.DponeCli source: shared objects file (top)"),
            "the application's classes come from the archive");

        // an archive the JVM cannot use (here: not an archive at all) is skipped without a word on stdout
        Files.delete(jsa);
        try (OutputStream out = Files.newOutputStream(jsa)) {
            out.write("not a class-data archive".getBytes(StandardCharsets.UTF_8));
        }
        assertEquals(new Run(0, "dpone 0.1.0\n"), dpone(Map.of(), "--version"));
        // a bad command still exits non-zero through the launcher
        assertEquals(2, dpone(Map.of(), "no-such-verb").exit());
    }

    @Test
    void aFailedFirstRunKeepsNoArchiveAndPassesItsExitCode() throws Exception {
        assertEquals(2, dpone(Map.of(), "no-such-verb").exit());
        assertFalse(Files.exists(jsa), "an archive is kept only after a successful command");
        assertEquals(List.of(), leftovers());
    }

    @Test
    void dponeCdsZeroRecordsNothingAndJavaOptionsMaySpanLines() throws Exception {
        Path gcLog = app.resolve("gc.log");
        assertEquals(new Run(0, "dpone 0.1.0\n"), dpone(Map.of("DPONE_CDS", "0",
            "DPONE_JAVA_OPTS", "-Xmx256m\n  -Xlog:gc:file=" + gcLog), "--version"));
        assertTrue(Files.exists(gcLog), "the option on the second line was applied");
        assertFalse(Files.exists(jsa));
        assertEquals(List.of(), leftovers());
    }

    @Test
    void aOneTickCdcCommandRunsOnC1AndOtherCommandsKeepC2() throws Exception {
        // the JVM prints its final flags on stdout when asked through JAVA_TOOL_OPTIONS (read before the command line)
        Map<String, String> env = Map.of("DPONE_CDS", "0", "JAVA_TOOL_OPTIONS", "-XX:+PrintFlagsFinal");
        String tick = dpone(env, "ops", "cdc-runtime-run").stdout();
        String version = dpone(env, "--version").stdout();
        java.util.regex.Pattern c1 = java.util.regex.Pattern.compile("TieredStopAtLevel\\s+=\\s+1\\s");
        java.util.regex.Pattern metaspace = java.util.regex.Pattern.compile("MetaspaceSize\\s+=\\s+134217728\\s");
        assertTrue(c1.matcher(tick).find(), "ops cdc-runtime-run stops at C1");
        assertFalse(c1.matcher(version).find(), "other commands keep the C2 tier");
        assertTrue(metaspace.matcher(tick).find() && metaspace.matcher(version).find(),
            "every command starts with the larger metaspace threshold");
        // DPONE_JAVA_OPTS replaces the defaults, the C1 choice included
        String own = dpone(Map.of("DPONE_CDS", "0", "JAVA_TOOL_OPTIONS", "-XX:+PrintFlagsFinal", "DPONE_JAVA_OPTS",
            "-Xmx256m"), "ops", "cdc-runtime-run").stdout();
        assertFalse(c1.matcher(own).find(), "DPONE_JAVA_OPTS replaces the C1 default");
    }
}
