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
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/dpone's class-data archive, on a real layout (bin/dpone, target/dpone-*.jar made of the compiled classes,
 * target/lib linking the dependencies): the first run records the archive and renames it into place, later runs use
 * it, and neither an archive nor an unusable one ever adds a byte to stdout (where --format json goes). Also the
 * launcher's choice of runtime (DPONE_JAVA_HOME; stand-in JDK homes whose bin/java logs its arguments show the
 * options and archive steps per runtime version; a real JDK 25, when installed, runs the jar) and its per-command
 * JVM options.
 */
@io.dpone.testing.ProcessTest
class LauncherCdsTest {
    @TempDir
    Path app;
    private Path jsa;
    private Path cdcJsa;

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
        // the archive is named after the runtime that records it: the release file of the java on PATH
        String runtime = "";
        for (String dir : System.getenv("PATH").split(File.pathSeparator)) {
            Path java = Path.of(dir, "java");
            if (Files.isExecutable(java)) {
                Path release = java.toRealPath().getParent().getParent().resolve("release");
                if (Files.isRegularFile(release)) {
                    runtime = Files.readAllLines(release).stream().filter(l -> l.startsWith("JAVA_RUNTIME_VERSION="))
                        .map(l -> "." + l.substring(l.indexOf('"') + 1, l.lastIndexOf('"'))
                            .replaceAll("[^A-Za-z0-9.+_-]", "_")).findFirst().orElse("");
                }
                break;
            }
        }
        jsa = app.resolve("target/dpone-0.0.0-test" + runtime + ".jsa");
        cdcJsa = app.resolve("target/dpone-0.0.0-test" + runtime + ".cdc.jsa");
    }

    private record Run(int exit, String stdout) {
    }

    private record Full(int exit, String stdout, String stderr) {
    }

    /** What {@code --version} prints: the build's project version and commit (the jar and these classes are one build). */
    private static final String VERSION_LINE = "dpone " + io.dpone.report.BuildInfo.version() + " (commit "
        + io.dpone.report.BuildInfo.commit() + ")\n";

    private Run dpone(Map<String, String> env, String... args) throws Exception {
        Full f = dponeFull(env, args);
        return new Run(f.exit(), f.stdout());
    }

    private Full dponeFull(Map<String, String> env, String... args) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(Stream.concat(Stream.of(app.resolve("bin/dpone").toString()),
            Stream.of(args)).toList());
        pb.environment().remove("DPONE_JAVA_OPTS");
        pb.environment().remove("DPONE_CDS");
        pb.environment().remove("DPONE_JAVA_HOME");
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        pb.environment().putAll(env);
        Path err = Files.createTempFile(app, "stderr", ".txt");
        Path stdout = Files.createTempFile(app, "stdout", ".txt");
        pb.redirectError(err.toFile()).redirectOutput(stdout.toFile());
        int exit = io.dpone.testing.Await.exit(pb.start(), java.time.Duration.ofSeconds(120), "bin/dpone");
        String out = Files.readString(stdout, StandardCharsets.UTF_8);
        String stderr = Files.readString(err);
        Files.delete(err);
        Files.delete(stdout);
        return new Full(exit, out, stderr);
    }

    private List<Path> leftovers() throws IOException {
        try (Stream<Path> s = Files.list(app.resolve("target"))) {
            return s.filter(f -> f.getFileName().toString().endsWith(".tmp")
                || f.getFileName().toString().endsWith(".conf")).toList();
        }
    }

    private List<String> archives() throws IOException {
        try (Stream<Path> s = Files.list(app.resolve("target"))) {
            return s.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".jsa") || n.endsWith(".aot"))
                .sorted().toList();
        }
    }

    @Test
    void theFirstRunRecordsTheArchiveAndLaterRunsUseItWithCleanStdout() throws Exception {
        Run first = dpone(Map.of(), "--version");
        assertEquals(new Run(0, VERSION_LINE), first);
        assertTrue(Files.size(jsa) > 0, "the archive was recorded");
        assertEquals(List.of(), leftovers());
        FileTime recorded = Files.getLastModifiedTime(jsa);

        Path classLog = app.resolve("classes.log");
        assertEquals(new Run(0, VERSION_LINE), dpone(Map.of("DPONE_JAVA_OPTS",
            "-Xmx256m -Xlog:class+load=info:file=" + classLog), "--version"));
        assertEquals(recorded, Files.getLastModifiedTime(jsa), "a current archive is not recorded again");
        assertTrue(Files.readString(classLog).contains("io.dpone.cli.DponeCli source: shared objects file (top)"),
            "the application's classes come from the archive");

        // an archive the JVM cannot use (here: not an archive at all) is skipped without a word on stdout
        Files.delete(jsa);
        try (OutputStream out = Files.newOutputStream(jsa)) {
            out.write("not a class-data archive".getBytes(StandardCharsets.UTF_8));
        }
        assertEquals(new Run(0, VERSION_LINE), dpone(Map.of(), "--version"));
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
        assertEquals(new Run(0, VERSION_LINE), dpone(Map.of("DPONE_CDS", "0",
            "DPONE_JAVA_OPTS", "-Xmx256m\n  -Xlog:gc:file=" + gcLog), "--version"));
        assertTrue(Files.exists(gcLog), "the option on the second line was applied");
        assertFalse(Files.exists(jsa));
        assertEquals(List.of(), leftovers());
    }

    @Test
    void perCommandJvmOptionsAndDponeJavaOptsReplacesThem() throws Exception {
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
        java.util.regex.Pattern serial = java.util.regex.Pattern.compile("UseSerialGC\\s+=\\s+true\\s");
        java.util.regex.Pattern parallel = java.util.regex.Pattern.compile("UseParallelGC\\s+=\\s+true\\s");
        assertTrue(serial.matcher(tick).find() && !parallel.matcher(tick).find(), "a one-tick command runs SerialGC");
        assertTrue(parallel.matcher(version).find() && !serial.matcher(version).find(),
            "other commands keep ParallelGC");
        // the tick's young generation holds a 100k-event tick's allocation (1 GiB), the heap keeps 2 GiB beside it
        java.util.regex.Pattern young = java.util.regex.Pattern.compile("\\bNewSize\\s+=\\s+1073741824\\s");
        java.util.regex.Pattern heap = java.util.regex.Pattern.compile("MaxHeapSize\\s+=\\s+3221225472\\s");
        assertTrue(young.matcher(tick).find() && heap.matcher(tick).find(), "a one-tick command: -Xmn1g -Xmx3g");
        assertFalse(young.matcher(version).find() || heap.matcher(version).find(),
            "other commands keep -Xmn192m -Xmx2g");
        // a full refresh compiles later (thresholds x10); other commands keep the JVM's thresholds
        String run = dpone(env, "run").stdout();
        java.util.regex.Pattern scaled = java.util.regex.Pattern.compile("CompileThresholdScaling\\s+=\\s+10\\.0*\\s");
        assertTrue(scaled.matcher(run).find(), "run compiles with thresholds x10");
        assertFalse(scaled.matcher(version).find() || scaled.matcher(tick).find(), "only run scales the thresholds up");
        java.util.regex.Pattern lowered = java.util.regex.Pattern.compile("CompileThresholdScaling\\s+=\\s+0\\.10*\\s");
        assertTrue(lowered.matcher(tick).find(), "a one-tick command compiles at a tenth of the thresholds");
        assertFalse(lowered.matcher(version).find() || lowered.matcher(run).find(), "only the tick lowers them");
        // DPONE_JAVA_OPTS replaces the defaults, the C1 and GC choices included
        String own = dpone(Map.of("DPONE_CDS", "0", "JAVA_TOOL_OPTIONS", "-XX:+PrintFlagsFinal", "DPONE_JAVA_OPTS",
            "-Xmx256m"), "ops", "cdc-runtime-run").stdout();
        assertFalse(c1.matcher(own).find(), "DPONE_JAVA_OPTS replaces the C1 default");
        assertFalse(serial.matcher(own).find(), "DPONE_JAVA_OPTS replaces the GC default");
    }

    @Test
    void aCdcTickRecordsAndMapsAnArchiveOfItsOwn() throws Exception {
        assertEquals(0, dpone(Map.of(), "ops", "cdc-runtime-run", "--help").exit());
        assertTrue(Files.size(cdcJsa) > 0, "the tick's archive was recorded");
        assertFalse(Files.exists(jsa), "the other commands' archive is not the tick's");
        assertEquals(new Run(0, VERSION_LINE), dpone(Map.of(), "--version"));
        assertTrue(Files.size(jsa) > 0);
        assertEquals(List.of(jsa.getFileName().toString(), cdcJsa.getFileName().toString()).stream().sorted()
            .toList(), archives());
        FileTime recorded = Files.getLastModifiedTime(cdcJsa);
        Path classLog = app.resolve("classes.log");
        assertEquals(0, dpone(Map.of("DPONE_JAVA_OPTS", "-Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC "
            + "-Xlog:class+load=info:file=" + classLog), "ops", "cdc-runtime-run", "--help").exit());
        assertEquals(recorded, Files.getLastModifiedTime(cdcJsa));
        String log = Files.readString(classLog);
        assertTrue(log.contains("io.dpone.cli.CdcCommands$CdcRuntimeRun source: shared objects file (top)"),
            "the tick's classes come from its archive");
    }

    // ---- the runtime: DPONE_JAVA_HOME, runtimes newer than 17 ----------------------------------------------------

    /**
     * A stand-in JDK home: a release file naming {@code runtime} and a bin/java that logs its arguments (one line per
     * start) to {@code <home>/args.log}, writes the files a recording run or the AOT assembly would write, exits 1 on
     * the argument {@code fail}, and otherwise prints "fake java".
     */
    private Path fakeJdk(String name, String runtime) throws IOException {
        Path home = Files.createDirectories(app.resolve(name).resolve("bin"));
        home = home.getParent();
        if (runtime != null) {
            Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"test\"\nJAVA_RUNTIME_VERSION=\"" + runtime
                + "\"\nJAVA_VERSION=\"" + runtime.replaceAll("\\+.*", "") + "\"\n");
        }
        Path java = home.resolve("bin/java");
        Files.writeString(java, String.join("\n",
            "#!/bin/sh",
            "printf '%s\\n' \"$*\" >> '" + home.resolve("args.log") + "'",
            "mode=; conf=; cache=; cds=; rcfile=",
            "for a in \"$@\"; do",
            "  case \"$a\" in",
            "    -XX:AOTMode=*) mode=\"${a#*=}\" ;;",
            "    -XX:AOTConfiguration=*) conf=\"${a#*=}\" ;;",
            "    -XX:AOTCache=*) cache=\"${a#*=}\" ;;",
            "    -XX:ArchiveClassesAtExit=*) cds=\"${a#*=}\" ;;",
            "    -Ddpone.exit-code-file=*) rcfile=\"${a#*=}\" ;;",
            "    fail) exit 1 ;;",
            // the command ends (its code written where the launcher asked), then the archive's dump crashes the JVM
            "    crash) [ -n \"$cds\" ] && { echo 0 > \"$rcfile\"; echo 'fake java'; kill -ABRT $$; } ;;",
            "  esac",
            "done",
            "[ \"$mode\" = record ] && echo recorded > \"$conf\"",
            "if [ \"$mode\" = create ]; then echo cache > \"$cache\"; exit 0; fi",
            "[ -n \"$cds\" ] && echo archive > \"$cds\"",
            "echo 'fake java'", ""));
        assertTrue(java.toFile().setExecutable(true));
        return home;
    }

    private static List<String> starts(Path home) throws IOException {
        Path log = home.resolve("args.log");
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    @Test
    void aJdk25RuntimeRecordsAnAotCacheInTwoStepsThenMapsIt() throws Exception {
        Path home = fakeJdk("jdk25", "25.0.1+9-LTS");
        Map<String, String> env = Map.of("DPONE_JAVA_HOME", home.toString());
        Path cache = app.resolve("target/dpone-0.0.0-test.25.0.1+9-LTS.aot");

        assertEquals(new Full(0, "fake java\n", ""), dponeFull(env, "--version"));
        List<String> first = starts(home);
        assertEquals(2, first.size(), "the command, then the cache's assembly: " + first);
        String command = first.get(0);
        for (String opt : List.of("--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
            "-XX:AOTMode=record", "-XX:AOTConfiguration=" + cache + ".", "-XX:-DisplayVMOutput", "-Xlog:aot=off",
            "-XX:+UseParallelGC")) {
            assertTrue(command.contains(opt), opt + " in " + command);
        }
        assertTrue(command.endsWith("io.dpone.cli.DponeCli --version"), command);
        assertTrue(first.get(1).contains("-XX:AOTMode=create") && first.get(1).contains("-XX:AOTCache=" + cache + ".")
            && !first.get(1).contains("DponeCli"), "the assembly runs apart from the command: " + first.get(1));
        assertEquals(List.of(cache.getFileName().toString()), archives());
        assertEquals(List.of(), leftovers());

        assertEquals(new Full(0, "fake java\n", ""), dponeFull(env, "--version"));
        String mapped = starts(home).get(2);
        assertTrue(mapped.contains("-XX:AOTCache=" + cache + " ") && !mapped.contains("AOTMode"),
            "a current cache is mapped, not recorded again: " + mapped);
        assertTrue(mapped.contains("--enable-native-access=ALL-UNNAMED"), mapped);

        // DPONE_JAVA_OPTS replaces the tuning, not the options that keep a newer runtime's warnings off stderr
        dponeFull(Map.of("DPONE_JAVA_HOME", home.toString(), "DPONE_JAVA_OPTS", "-Xmx256m"), "--version");
        String own = starts(home).get(3);
        assertTrue(own.contains("-Xmx256m") && !own.contains("-XX:+UseParallelGC")
            && own.contains("--sun-misc-unsafe-memory-access=allow"), own);

        // a tick keeps a cache of its own
        assertEquals(0, dponeFull(env, "ops", "cdc-runtime-run").exit());
        assertEquals(List.of(cache.getFileName().toString(), "dpone-0.0.0-test.25.0.1+9-LTS.cdc.aot"), archives());
    }

    @Test
    void aFailedRunOnJdk25AssemblesNothingAndKeepsNothing() throws Exception {
        Path home = fakeJdk("jdk25", "25.0.1+9-LTS");
        assertEquals(1, dponeFull(Map.of("DPONE_JAVA_HOME", home.toString()), "fail").exit());
        assertEquals(1, starts(home).size(), "no assembly after a failed command: " + starts(home));
        assertEquals(List.of(), archives());
        assertEquals(List.of(), leftovers());
    }

    @Test
    void anArchiveDumpThatCrashesTheJvmAfterTheCommandKeepsTheCommandsExitCodeAndRecordsNoMore() throws Exception {
        Path home = fakeJdk("jdk17", "17.0.15+6");
        Map<String, String> env = Map.of("DPONE_JAVA_HOME", home.toString());
        Path archive = app.resolve("target/dpone-0.0.0-test.17.0.15+6.jsa");
        assertEquals(new Full(0, "fake java\n", ""), dponeFull(env, "crash"));
        assertEquals(List.of(), archives(), "a crashed dump keeps no archive");
        assertTrue(Files.exists(Path.of(archive + ".failed")), "and marks the jar as not to record again");
        assertEquals(List.of(), leftovers());
        assertEquals(new Full(0, "fake java\n", ""), dponeFull(env, "--version"));
        List<String> s = starts(home);
        assertTrue(s.get(0).contains("-XX:ArchiveClassesAtExit=") && s.get(0).contains("-Ddpone.exit-code-file="),
            s.get(0));
        assertFalse(s.get(1).contains("ArchiveClassesAtExit") || s.get(1).contains("SharedArchiveFile"),
            "no second recording for this jar: " + s.get(1));
    }

    @Test
    void aRuntimeBefore24KeepsTheClassDataArchiveAndNoNewerOptions() throws Exception {
        Path home = fakeJdk("jdk21", "21.0.2+13");
        Map<String, String> env = Map.of("DPONE_JAVA_HOME", home.toString());
        Path archive = app.resolve("target/dpone-0.0.0-test.21.0.2+13.jsa");
        assertEquals(new Full(0, "fake java\n", ""), dponeFull(env, "--version"));
        assertEquals(List.of(archive.getFileName().toString()), archives());
        assertEquals(new Full(0, "fake java\n", ""), dponeFull(env, "--version"));
        List<String> s = starts(home);
        assertTrue(s.get(0).contains("-XX:ArchiveClassesAtExit=" + archive + "."), s.get(0));
        assertTrue(s.get(1).contains("-XX:SharedArchiveFile=" + archive + " "), s.get(1));
        for (String line : s) {
            assertFalse(line.contains("--enable-native-access") || line.contains("--sun-misc-unsafe")
                || line.contains("AOT"), line);
        }
        // a home without a release file counts as 17: no newer option, an archive without a runtime in its name
        Path bare = fakeJdk("bare", null);
        assertEquals(new Full(0, "fake java\n", ""), dponeFull(Map.of("DPONE_JAVA_HOME", bare.toString()),
            "--version"));
        assertTrue(archives().contains("dpone-0.0.0-test.jsa"), archives().toString());
        assertFalse(starts(bare).get(0).contains("--enable-native-access"));
    }

    @Test
    void aDponeJavaHomeWithoutJavaIsAUsageErrorWithEmptyStdout() throws Exception {
        Full f = dponeFull(Map.of("DPONE_JAVA_HOME", app.resolve("no-such-jdk").toString()), "--version");
        assertEquals(2, f.exit());
        assertEquals("", f.stdout());
        assertTrue(f.stderr().contains("DPONE_JAVA_HOME"), f.stderr());
    }

    /**
     * The real JDK 25, where one is installed (CI runs JDK 17 only; DPONE_TEST_JDK25 names another home): the same
     * jar runs on it, the AOT cache is recorded on the first run and mapped on the next, and neither run writes a byte
     * to stderr (the JDK's native-access and Unsafe warnings, the recording JVM's messages) or more than the document
     * to stdout.
     */
    @Test
    void theRealJdk25RunsTheJarWithCleanStreamsAndItsAotCache() throws Exception {
        Path jdk25 = Path.of(System.getenv().getOrDefault("DPONE_TEST_JDK25", "/usr/lib/jvm/temurin-25-jdk-amd64"));
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(jdk25.resolve("bin/java")),
            "no JDK 25 at " + jdk25);
        Map<String, String> env = Map.of("DPONE_JAVA_HOME", jdk25.toString());
        assertEquals(new Full(0, VERSION_LINE, ""), dponeFull(env, "--version"));
        List<String> made = archives().stream().filter(n -> n.endsWith(".aot")).toList();
        assertEquals(1, made.size(), archives().toString());
        assertTrue(made.get(0).startsWith("dpone-0.0.0-test.25."), made.get(0));
        assertEquals(List.of(), leftovers());
        Path classLog = app.resolve("classes25.log");
        assertEquals(new Full(0, VERSION_LINE, ""), dponeFull(Map.of("DPONE_JAVA_HOME", jdk25.toString(),
            "DPONE_JAVA_OPTS", "-Xmx256m -XX:+UseParallelGC -Xlog:class+load=info:file=" + classLog), "--version"));
        assertTrue(Files.readString(classLog).contains("io.dpone.cli.DponeCli source: shared objects file"),
            "the application's classes come from the AOT cache");
    }
}
