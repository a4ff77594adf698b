package io.dpone.testing;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one way a test starts a child JVM: this JVM's {@code java}, its temporary directory (a child inherits the
 * environment, {@code DPONE_HOME} and {@code TMPDIR} under {@code target/} from pom.xml, but not
 * {@code java.io.tmpdir}, which would otherwise be {@code /tmp}), its class path, then the JVM options, the main
 * class and its arguments the test gives:
 * <pre>
 * Process p = ChildJvm.cli().jvm("-Xmx1g").args("run", manifest).env("DPONE_HOME", home)
 *     .stdout(out).stderr(err).start();
 * int code = Await.exit(p, Duration.ofMinutes(2), "the run");
 * </pre>
 * Tests that start a child are tagged {@link ProcessTest} (docs/testing.md, "Test tiers").
 */
public final class ChildJvm {
    /** This JVM's {@code java} executable. */
    public static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    /** The CLI's main class. */
    public static final String CLI = "io.dpone.cli.DponeCli";

    private final String mainClass;
    private final List<String> jvmOptions = new ArrayList<>();
    private final List<String> args = new ArrayList<>();
    private final Map<String, String> env = new LinkedHashMap<>();
    private final List<String> envRemoved = new ArrayList<>();
    private ProcessBuilder.Redirect stdin;
    private ProcessBuilder.Redirect stdout;
    private ProcessBuilder.Redirect stderr;
    private boolean mergeStderr;

    private ChildJvm(String mainClass) {
        this.mainClass = mainClass;
    }

    /** {@code -Djava.io.tmpdir=} this JVM's temporary directory. */
    public static String tmpdir() {
        return "-Djava.io.tmpdir=" + Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath();
    }

    /** A child JVM running {@code mainClass} on this JVM's class path. */
    public static ChildJvm main(Class<?> mainClass) {
        return new ChildJvm(mainClass.getName());
    }

    /** A child JVM running the main class named {@code mainClass} on this JVM's class path. */
    public static ChildJvm main(String mainClass) {
        return new ChildJvm(mainClass);
    }

    /** A child JVM running {@code dpone} (the CLI's main class) on this JVM's class path. */
    public static ChildJvm cli() {
        return new ChildJvm(CLI);
    }

    /** JVM options, before the main class ({@code -Xmx1g}, {@code -javaagent:...}). */
    public ChildJvm jvm(String... options) {
        jvmOptions.addAll(List.of(options));
        return this;
    }

    /** Arguments of the main class, after the ones given so far. */
    public ChildJvm args(String... arguments) {
        return args(List.of(arguments));
    }

    public ChildJvm args(List<String> arguments) {
        args.addAll(arguments);
        return this;
    }

    /** An environment variable of the child (it inherits the test JVM's environment otherwise). */
    public ChildJvm env(String name, String value) {
        env.put(name, value);
        return this;
    }

    /** An inherited environment variable the child must not see. */
    public ChildJvm withoutEnv(String name) {
        envRemoved.add(name);
        return this;
    }

    public ChildJvm stdin(Path file) {
        stdin = ProcessBuilder.Redirect.from(file.toFile());
        return this;
    }

    public ChildJvm stdout(Path file) {
        stdout = ProcessBuilder.Redirect.to(file.toFile());
        return this;
    }

    public ChildJvm stderr(Path file) {
        stderr = ProcessBuilder.Redirect.to(file.toFile());
        return this;
    }

    /** stderr into stdout (read from {@link Process#getInputStream()} unless {@link #stdout(Path)} is given). */
    public ChildJvm mergeStderr() {
        mergeStderr = true;
        return this;
    }

    /** The command line: {@code java}, the temporary directory, the JVM options, the class path, main, args. */
    public List<String> command() {
        List<String> command = new ArrayList<>(List.of(JAVA, tmpdir()));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
        command.addAll(args);
        return command;
    }

    /** The process builder of {@link #command()} with the environment and redirections given. */
    public ProcessBuilder builder() {
        ProcessBuilder pb = new ProcessBuilder(command()).redirectErrorStream(mergeStderr);
        envRemoved.forEach(pb.environment()::remove);
        pb.environment().putAll(env);
        if (stdin != null) {
            pb.redirectInput(stdin);
        }
        if (stdout != null) {
            pb.redirectOutput(stdout);
        }
        if (stderr != null) {
            pb.redirectError(stderr);
        }
        return pb;
    }

    public Process start() throws IOException {
        return builder().start();
    }

    /** Starts the child and waits for its exit code at most {@code bound} (then kills it and fails). */
    public int run(Duration bound, String what) throws IOException {
        return Await.exit(start(), bound, what);
    }
}
