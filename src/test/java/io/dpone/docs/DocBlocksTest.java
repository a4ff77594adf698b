package io.dpone.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The docs run as written (issue 36): every fenced shell block of README.md, docs/*.md and examples/&#42;/README.md
 * runs, in document order per file, in a working copy of its own under {@code target/doc-test/<file>/} (bin/dpone
 * over a jar of this build's classes, dev/, examples/, a {@code DPONE_HOME} of its own), and must end with the exit
 * code its marker expects (0 without one) and print what the marker says it prints. Blocks that cannot run here carry
 * {@code <!-- doc-test: skip reason="..." -->} and are listed; see {@link DocBlock} for the markers and
 * docs/testing.md, "The docs run as written".
 */
@io.dpone.testing.ProcessTest
class DocBlocksTest {
    private static final Path ROOT = Path.of("").toAbsolutePath();
    private static final Path BASE = ROOT.resolve("target/doc-test");
    private static final Path APP = BASE.resolve("app");
    private static final long BLOCK_SECONDS = 300;
    private static final List<Process> BACKGROUND = new ArrayList<>();

    static List<Path> documents() throws IOException {
        List<Path> files = new ArrayList<>();
        files.add(Path.of("README.md"));
        try (Stream<Path> s = Files.list(Path.of("docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        try (Stream<Path> s = Files.walk(Path.of("examples"))) {
            s.filter(p -> p.getFileName().toString().equals("README.md")).sorted().forEach(files::add);
        }
        return files;
    }

    @Test
    void everyMarkerIsWellFormedAndTheSkippedBlocksAreListed() throws IOException {
        List<String> problems = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        int blocks = 0;
        Pattern marker = Pattern.compile("^\\s*<!--\\s*doc-test:.*");
        for (Path f : documents()) {
            List<String> lines = Files.readAllLines(f);
            List<DocBlock> parsed = DocBlock.parse(f);
            blocks += parsed.size();
            for (DocBlock b : parsed) {
                if (b.markerProblem() != null) {
                    problems.add(b.where() + ": " + b.markerProblem());
                }
                if (b.skipped()) {
                    skipped.add(b.where() + ": " + b.marker().get("reason"));
                }
            }
            for (int i = 0; i < lines.size(); i++) {
                int fenceLine = i + 2;
                if (marker.matcher(lines.get(i)).matches()
                    && parsed.stream().noneMatch(b -> b.line() == fenceLine)) {
                    problems.add(f + ":" + (i + 1) + ": a doc-test marker not directly before a shell block's fence");
                }
            }
        }
        System.out.println("doc-test: " + blocks + " shell blocks, " + skipped.size() + " not run here:");
        skipped.forEach(s -> System.out.println("  skipped " + s));
        assertTrue(problems.isEmpty(), String.join("\n", problems));
        assertTrue(blocks > skipped.size(), "some blocks run");
    }

    @Test
    void aMarkerWithoutReasonOrWithAnUnknownAttributeIsRefused() {
        assertEquals("a skipped block needs reason=\"...\"", DocBlock.attributes(" skip ", new LinkedHashMap<>()));
        assertEquals("a skipped block needs reason=\"...\"", DocBlock.attributes(" skip reason=\"\" ",
            new LinkedHashMap<>()));
        assertEquals("unknown doc-test attribute 'expect'", DocBlock.attributes(" expect=1 ", new LinkedHashMap<>()));
        assertEquals("expect-exit must be a number", DocBlock.attributes(" expect-exit=x ", new LinkedHashMap<>()));
        Map<String, String> ok = new LinkedHashMap<>();
        assertEquals(null, DocBlock.attributes(" skip reason=\"needs Docker\" ", ok));
        assertEquals("needs Docker", ok.get("reason"));
        Map<String, String> quoted = new LinkedHashMap<>();
        assertEquals(null, DocBlock.attributes(" expect-output='\"a\" : 1' port=80 ", quoted));
        assertEquals(Map.of("expect-output", "\"a\" : 1", "port", "80"), quoted);
    }

    @BeforeAll
    static void app() throws IOException {
        Files.createDirectories(APP.resolve("lib"));
        Path jar = APP.resolve("dpone-" + io.dpone.report.BuildInfo.version() + ".jar");
        Files.deleteIfExists(jar);
        Path classes = ROOT.resolve("target/classes");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            Files.walkFileTree(classes, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) throws IOException {
                    if (!d.equals(classes)) {
                        // directory entries: Camel finds the route YAML by listing classpath:routes/ in the jar
                        out.putNextEntry(new JarEntry(classes.relativize(d).toString()
                            .replace(File.separatorChar, '/') + "/"));
                        out.closeEntry();
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) throws IOException {
                    out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace(File.separatorChar, '/')));
                    Files.copy(f, out);
                    out.closeEntry();
                    return FileVisitResult.CONTINUE;
                }
            });
        }
        List<String> jars = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path p = Path.of(entry);
            if (entry.endsWith(".jar") && Files.isRegularFile(p)) {
                jars.add(p.toAbsolutePath().toString());
                Path link = APP.resolve("lib").resolve(p.getFileName());
                if (!Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    Files.createSymbolicLink(link, p.toAbsolutePath());
                }
            }
        }
        // what dev/clickhouse-twin and dev/mssql-twin otherwise ask Maven for
        Files.writeString(APP.resolve("twin-cp.txt"), String.join(File.pathSeparator, jars));
    }

    @AfterAll
    static void stopBackground() {
        BACKGROUND.forEach(DocBlocksTest::stop);
        BACKGROUND.clear();
    }

    @TestFactory
    List<DynamicNode> everyShellBlockRunsAsWritten() throws IOException {
        List<DynamicNode> files = new ArrayList<>();
        for (Path f : documents()) {
            List<DocBlock> blocks = DocBlock.parse(f);
            if (blocks.isEmpty()) {
                continue;
            }
            FileRun run = new FileRun(f);
            List<DynamicNode> tests = new ArrayList<>();
            for (DocBlock b : blocks) {
                tests.add(DynamicTest.dynamicTest("line " + b.line() + (b.skipped() ? " (skipped: "
                    + b.marker().get("reason") + ")" : ""), () -> run.run(b)));
            }
            tests.add(DynamicTest.dynamicTest("stop what the file started", run::stopAll));
            files.add(DynamicContainer.dynamicContainer(f.toString(), tests));
        }
        return files;
    }

    /** One document's working copy, environment and background servers. */
    private static final class FileRun {
        private final Path file;
        private final Path copy;
        private final Path env;
        private final Map<String, String> ports = new LinkedHashMap<>();
        private final List<Process> started = new ArrayList<>();
        private final Map<Process, String> servers = new LinkedHashMap<>();
        private boolean prepared;

        FileRun(Path file) {
            this.file = file;
            this.copy = BASE.resolve(file.toString().replace(".md", "").replace('/', '_'));
            this.env = copy.resolve(".doc-test/env.sh");
        }

        private void prepare() throws IOException {
            if (prepared) {
                return;
            }
            prepared = true;
            delete(copy);
            Files.createDirectories(copy.resolve(".doc-test"));
            Files.createDirectories(copy.resolve("bin"));
            Files.copy(ROOT.resolve("bin/dpone"), copy.resolve("bin/dpone"));
            copyTree(ROOT.resolve("examples"), copy.resolve("examples"));
            copyTree(ROOT.resolve("dev"), copy.resolve("dev"));
            Files.createDirectories(copy.resolve("target"));
            try (Stream<Path> s = Files.list(APP)) {
                for (Path p : s.toList()) {
                    Files.createSymbolicLink(copy.resolve("target").resolve(p.getFileName()), p);
                }
            }
            for (String shared : List.of("target/classes", "target/test-classes")) {
                Files.createSymbolicLink(copy.resolve(shared), ROOT.resolve(shared));
            }
            // the twins' launchers compare the sources with the compiled test classes
            Files.createSymbolicLink(copy.resolve("src"), ROOT.resolve("src"));
            Files.createSymbolicLink(copy.resolve("pom.xml"), ROOT.resolve("pom.xml"));
            // ... and to the stamp of their last compile: this build's test-compile ran before this test
            Files.writeString(copy.resolve("target/twin-classes.stamp"), "");
            // the build is this test's own (the jar above): the README's build step is accepted, nothing else is
            Files.writeString(copy.resolve("mvnw"), """
                #!/usr/bin/env bash
                # doc-test stand-in: the jar under target/ is the build under test
                if [ "$*" = "-q -B package -DskipTests" ]; then exit 0; fi
                echo "doc-test: './mvnw $*' is not run inside the doc test; mark the block skip" >&2
                exit 97
                """);
            for (String exe : List.of("mvnw", "bin/dpone", "dev/clickhouse-twin", "dev/mssql-twin")) {
                copy.resolve(exe).toFile().setExecutable(true);
            }
            Files.createDirectories(copy.resolve("home"));
            Files.writeString(env, "");
        }

        void run(DocBlock b) throws Exception {
            if (b.markerProblem() != null) {
                fail(b.where() + ": " + b.markerProblem());
            }
            if (b.skipped()) {
                System.out.println("doc-test: skipped " + b.where() + ": " + b.marker().get("reason"));
                return;
            }
            prepare();
            // a server a block started serves the later blocks that name its port; the first one that does not
            // stops it, as the doc's Ctrl-C does
            for (Map.Entry<Process, String> bg : List.copyOf(servers.entrySet())) {
                if (!bg.getValue().equals(b.marker().get("port"))) {
                    stop(bg.getKey());
                    servers.remove(bg.getKey());
                }
            }
            if (b.marker().containsKey("port") && !servers.containsValue(b.marker().get("port"))) {
                try (ServerSocket s = new ServerSocket(0)) {
                    ports.put(b.marker().get("port"), Integer.toString(s.getLocalPort()));
                }
            }
            String body = substitute(commands(b));
            Path out = copy.resolve(".doc-test/line-" + b.line() + ".out");
            Path err = copy.resolve(".doc-test/line-" + b.line() + ".err");
            if (b.background()) {
                // the variables the block exports reach the later blocks; the server itself runs on
                StringBuilder exports = new StringBuilder();
                body.lines().filter(l -> l.startsWith("export ")).forEach(l -> exports.append(l).append('\n'));
                Process e = shell(exports.toString(), out, err, true);
                assertTrue(e.waitFor(BLOCK_SECONDS, TimeUnit.SECONDS), b.where() + ": exports ended");
                ProcessBuilder pb = builder("set -eo pipefail\n. " + quote(env) + "\n" + body);
                pb.redirectErrorStream(true);
                Process p = pb.start();
                started.add(p);
                servers.put(p, b.marker().getOrDefault("port", ""));
                BACKGROUND.add(p);
                awaitReady(p, substitute(b.marker().get("ready")), out, b.where());
                return;
            }
            Process p = shell(body, out, err, false);
            if (!p.waitFor(BLOCK_SECONDS, TimeUnit.SECONDS)) {
                stop(p);
                fail(b.where() + ": did not end within " + BLOCK_SECONDS + " s\n" + tail(out) + tail(err));
            }
            String stdout = Files.readString(out);
            String stderr = Files.readString(err);
            assertEquals(b.expectedExit(), p.exitValue(), b.where() + " exit code\n--- stdout\n" + tail(out)
                + "\n--- stderr\n" + tail(err));
            String expected = b.marker().get("expect-output");
            if (expected != null) {
                String want = substitute(expected);
                assertTrue(stdout.contains(want) || stderr.contains(want), b.where() + ": prints '" + want
                    + "'\n--- stdout\n" + tail(out) + "\n--- stderr\n" + tail(err));
            }
        }

        /** A console block's commands are its {@code $ } lines; other blocks are their commands. */
        private static String commands(DocBlock b) {
            if (!b.lang().equals("console")) {
                return b.body();
            }
            StringBuilder sb = new StringBuilder();
            b.body().lines().filter(l -> l.startsWith("$ ")).forEach(l -> sb.append(l.substring(2)).append('\n'));
            return sb.toString();
        }

        private String substitute(String text) {
            for (Map.Entry<String, String> e : ports.entrySet()) {
                text = text.replace(e.getKey(), e.getValue());
            }
            return text;
        }

        private Process shell(String body, Path out, Path err, boolean exportsOnly) throws IOException {
            String script = "set -eo pipefail\n. " + quote(env) + "\n" + body + "\nexport -p > " + quote(env) + "\n";
            ProcessBuilder pb = builder(script);
            pb.redirectOutput(out.toFile()).redirectError(exportsOnly ? ProcessBuilder.Redirect.DISCARD
                : ProcessBuilder.Redirect.to(err.toFile()));
            return pb.start();
        }

        private ProcessBuilder builder(String script) {
            ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).directory(copy.toFile());
            pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            Map<String, String> e = pb.environment();
            for (String k : List.of("DPONE_RUNTIME_CONNECTION_CONTEXT", "DPONE_JAVA_OPTS", "DPONE_JAVA_HOME",
                "JAVA_TOOL_OPTIONS")) {
                e.remove(k);
            }
            e.put("DPONE_HOME", copy.resolve("home").toString());
            // the launcher's class-data archive is LauncherCdsTest's; here every command starts plain
            e.put("DPONE_CDS", "0");
            // child JVMs keep the test's temporary directory (the JVM ignores TMPDIR)
            Path tmp = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath();
            e.put("TMPDIR", tmp.toString());
            e.put("JAVA_TOOL_OPTIONS", "-Djava.io.tmpdir=" + tmp);
            return pb;
        }

        void stopAll() {
            started.forEach(DocBlocksTest::stop);
            BACKGROUND.removeAll(started);
            started.clear();
            servers.clear();
        }
    }

    /**
     * Waits (bounded) for a line of the server's output (stdout and stderr) that contains {@code ready}; the output
     * is copied into {@code log} on its own thread until the server ends, so a server that keeps writing is never
     * blocked by a full pipe.
     */
    private static void awaitReady(Process p, String ready, Path log, String where) throws Exception {
        java.util.concurrent.CompletableFuture<Boolean> seen = new java.util.concurrent.CompletableFuture<>();
        Thread copier = new Thread(() -> {
            try (java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(
                    p.getInputStream(), StandardCharsets.UTF_8));
                 java.io.Writer w = Files.newBufferedWriter(log)) {
                String line;
                while ((line = in.readLine()) != null) {
                    w.write(line + "\n");
                    w.flush();
                    if (line.contains(ready)) {
                        seen.complete(true);
                    }
                }
            } catch (IOException e) {
                // the server ended; reported below if it was not ready
            } finally {
                seen.complete(false);
            }
        }, "doc-test-output");
        copier.setDaemon(true);
        copier.start();
        boolean ok;
        try {
            ok = seen.get(BLOCK_SECONDS, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            ok = false;
        }
        if (!ok) {
            stop(p);
            fail(where + ": never printed '" + ready + "'\n" + tail(log));
        }
    }

    private static void stop(Process p) {
        List<ProcessHandle> children = p.descendants().toList();
        children.forEach(ProcessHandle::destroy);
        p.destroy();
        try {
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            for (ProcessHandle c : children) {
                c.onExit().get(20, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            children.forEach(ProcessHandle::destroyForcibly);
        }
    }

    private static String quote(Path p) {
        return "'" + p.toString().replace("'", "'\\''") + "'";
    }

    private static String tail(Path f) throws IOException {
        if (!Files.exists(f)) {
            return "";
        }
        String s = Files.readString(f, StandardCharsets.UTF_8);
        return s.length() > 4000 ? "..." + s.substring(s.length() - 4000) : s;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                // symbolic links are removed, never followed (src, pom.xml and the shared build point outside)
                Files.delete(p);
            }
        }
    }
}
