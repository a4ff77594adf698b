package io.dpone.cli;

import io.dpone.connect.ConnectionContext;
import io.dpone.connect.Redactor;
import io.dpone.report.ReportWriter;
import java.io.PrintStream;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.Supplier;
import picocli.CommandLine.Option;

/**
 * What the {@code ops} commands that answer with one report document share ({@code cdc-materialize-clickhouse},
 * {@code cdc-verify}): the connection context and the streams they print to (injected for embedding and tests), the
 * {@code --format} option, and the rule for the answer: the document on stdout and exit 0 when the report passed, on
 * stderr with stdout empty and exit 1 when red; text through the {@link Redactor}.
 */
abstract class ReportCommand implements Callable<Integer> {
    @Option(names = "--format", defaultValue = "text", description = "json or text (default: ${DEFAULT-VALUE})")
    Format format;

    final Supplier<ConnectionContext> context;
    final PrintStream out;
    final PrintStream err;

    ReportCommand(Supplier<ConnectionContext> context, PrintStream out, PrintStream err) {
        this.context = context;
        this.out = out;
        this.err = err;
    }

    /** Prints {@code report} ({@code text} renders it for {@code --format text}); returns the exit code. */
    final int answer(Map<String, Object> report, Function<Map<String, Object>, String> text) {
        boolean passed = Boolean.TRUE.equals(report.get("passed"));
        PrintStream target = passed ? out : err;
        target.print(format == Format.json ? ReportWriter.json(report) : Redactor.global().redact(text.apply(report)));
        target.flush();
        return passed ? DponeCli.OK : DponeCli.BLOCKED;
    }
}
