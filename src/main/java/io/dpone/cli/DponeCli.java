package io.dpone.cli;

import io.dpone.connect.EmbeddedDefaults;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.watchdog.PhaseWatchdog;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code dpone}: the command-line entry point. Exit codes: 0 success, 1 blockers or failed run, 2 usage error. */
@Command(name = "dpone", mixinStandardHelpOptions = true, versionProvider = DponeCli.BuildVersion.class,
    description = "Moves SQL Server tables into ClickHouse and proves every move with evidence.",
    subcommands = {CheckCommand.class, PlanCommand.class, RunCommand.class, CertifyCommand.class, DemoCommand.class,
        CdcCommands.class, ServeCommand.class, RunsCommand.class, SqlCommand.class, DiscoverCommand.class})
public final class DponeCli implements Runnable {
    public static final int OK = 0;
    public static final int BLOCKED = 1;
    public static final int USAGE = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** How long the signal's report waits for the command to end and report the stop itself. */
    static final Duration INTERRUPT_GRACE = Duration.ofSeconds(15);
    private static final java.util.concurrent.CountDownLatch COMMAND_DONE = new java.util.concurrent.CountDownLatch(1);
    private static final java.util.concurrent.atomic.AtomicBoolean INTERRUPT_REPORTED =
        new java.util.concurrent.atomic.AtomicBoolean();

    /** The command printed its own report of a stop by a signal: the process's generic one is not printed. */
    static void interruptReported() {
        INTERRUPT_REPORTED.set(true);
    }

    /** {@code --version}: the build's project version and git commit ({@link io.dpone.report.BuildInfo}). */
    public static final class BuildVersion implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"dpone " + io.dpone.report.BuildInfo.version() + " (commit "
                + io.dpone.report.BuildInfo.commit() + ")"};
        }
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required");
    }

    /**
     * The process entry point. Every command but {@code serve} (a pod with its own shutdown policy) runs under the
     * {@link PhaseWatchdog}: a phase that neither ends nor progresses within {@code DPONE_PHASE_TIMEOUT} ends the
     * process with {@code runtime.phase_timeout} and a thread dump in the run's directory. A signal that ends the
     * JVM before the command finished prints {@code runtime.interrupted} on stderr (the run resumes with its run id).
     */
    public static void main(String[] args) {
        System.setOut(new RedactingPrintStream(System.out));
        System.setErr(new RedactingPrintStream(System.err));
        // java.util.logging's console handler would print the SQL Server driver's records (host and port included)
        // past Logback's levels and serve's JSON encoder: route them into Logback instead
        org.slf4j.bridge.SLF4JBridgeHandler.removeHandlersForRootLogger();
        org.slf4j.bridge.SLF4JBridgeHandler.install();
        Duration bound;
        try {
            bound = PhaseWatchdog.bound(System.getenv(PhaseWatchdog.ENV));
        } catch (IllegalArgumentException e) {
            System.err.println("dpone: " + e.getMessage());
            System.exit(USAGE);
            return;
        }
        boolean serve = args.length > 0 && args[0].equals("serve");
        boolean json = java.util.Arrays.asList(args).contains("--format=json")
            || java.util.Collections.indexOfSubList(java.util.Arrays.asList(args), List.of("--format", "json")) >= 0;
        java.util.concurrent.atomic.AtomicBoolean finished = new java.util.concurrent.atomic.AtomicBoolean(serve);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (finished.get()) {
                return;
            }
            // the command itself may still end and report the stop (run: what is kept, how to resume); wait for it
            // a bounded moment, so stderr holds one report, not two
            try {
                COMMAND_DONE.await(INTERRUPT_GRACE.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (!INTERRUPT_REPORTED.get()) {
                String message = "stopped by a signal before the command finished; nothing half-done is published, "
                    + "and the same command with the same --run-id resumes the run";
                System.err.println(json ? Output.failure(Blocker.of(BlockerCode.INTERRUPTED, "runtime", message))
                    : "dpone: " + message + " (" + BlockerCode.INTERRUPTED.code() + ")");
                System.err.flush();
            }
        }, "dpone-interrupted-report"));
        int code;
        try {
            if (serve) {
                code = execute(args);
            } else {
                try (PhaseWatchdog guard = PhaseWatchdog.arm(bound, EmbeddedDefaults.home().resolve("diagnostics"),
                        DponeCli::phaseTimedOut)) {
                    code = execute(args);
                }
            }
            if (!io.dpone.route.ProcessShutdown.inProgress()) {
                finished.set(true); // ended before any signal: the hook has nothing to say
            }
        } finally {
            COMMAND_DONE.countDown();
        }
        recordExitCode(code);
        System.exit(code);
    }

    /**
     * Writes the command's exit code where the launcher asked for it ({@code -Ddpone.exit-code-file}), before the JVM
     * exits: on JDK 17 the class-data archive a first run records is dumped at exit, and that dump can crash the JVM
     * (SIGSEGV in the lambda-proxy dictionary, seen once mssql-jdbc was loaded); the launcher then exits with the
     * command's own code and drops the archive, instead of reporting the dump's crash as the command's failure.
     */
    private static void recordExitCode(int code) {
        String file = System.getProperty("dpone.exit-code-file");
        if (file == null || file.isBlank()) {
            return;
        }
        try {
            java.nio.file.Files.writeString(java.nio.file.Path.of(file), Integer.toString(code),
                java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE);
        } catch (java.io.IOException | RuntimeException e) {
            // the launcher then keeps the JVM's own exit status
        }
    }

    private static void phaseTimedOut(String phase, Duration bound, String threadDump) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("bound_seconds", bound.toSeconds());
        details.put("thread_dump", threadDump);
        System.err.println(Output.failure(new Blocker(BlockerCode.PHASE_TIMEOUT.code(), phase, "phase '" + phase
            + "' neither ended nor made progress within " + bound.toSeconds() + " s (" + PhaseWatchdog.ENV + "); "
            + (threadDump == null ? "no thread dump could be written" : "thread dump " + threadDump
                + " written to the run's directory") + "; the same command with the same --run-id resumes the run",
            details)));
    }

    /** Runs the CLI and returns its exit code (for tests and the launcher). */
    public static int execute(String... args) {
        CommandLine cl = new CommandLine(new DponeCli());
        cl.setExecutionExceptionHandler((ex, line, parsed) -> {
            line.getErr().println(Output.internalError(ex));
            return BLOCKED;
        });
        cl.setParameterExceptionHandler((ex, a) -> {
            ex.getCommandLine().getErr().println("dpone: " + ex.getMessage());
            ex.getCommandLine().usage(ex.getCommandLine().getErr());
            return USAGE;
        });
        return cl.execute(args);
    }
}
