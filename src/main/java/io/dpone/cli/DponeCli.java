package io.dpone.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code dpone}: the command-line entry point. Exit codes: 0 success, 1 blockers or failed run, 2 usage error. */
@Command(name = "dpone", mixinStandardHelpOptions = true, version = "dpone 0.1.0",
    description = "Moves SQL Server tables into ClickHouse and proves every move with evidence.",
    subcommands = {CheckCommand.class, PlanCommand.class, RunCommand.class, CertifyCommand.class, DemoCommand.class,
        CdcCommands.class, ServeCommand.class})
public final class DponeCli implements Runnable {
    public static final int OK = 0;
    public static final int BLOCKED = 1;
    public static final int USAGE = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required");
    }

    public static void main(String[] args) {
        System.setOut(new RedactingPrintStream(System.out));
        System.setErr(new RedactingPrintStream(System.err));
        System.exit(execute(args));
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
