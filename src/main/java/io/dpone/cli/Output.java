package io.dpone.cli;

import io.dpone.connect.Redactor;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.report.ReportWriter;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/**
 * Where documents go: success to stdout, typed failure to stderr with stdout left empty. Everything passes
 * through the redaction layer on the way.
 */
final class Output {
    private Output() {
    }

    static int emit(boolean passed, Object report, String text, Format format) {
        PrintStream target = passed ? System.out : System.err;
        target.print(format == Format.json ? ReportWriter.json(report) : Redactor.global().redact(text));
        target.flush();
        return passed ? DponeCli.OK : DponeCli.BLOCKED;
    }

    static String internalError(Throwable t) {
        return failure(Blocker.of(BlockerCode.INTERNAL_ERROR, "runtime", Redactor.global().describe(t)));
    }

    /** The typed failure document ({@code dpone.error.v1}) of a command that ended without its own report. */
    static String failure(Blocker b) {
        return ReportWriter.json(Map.of("schema", "dpone.error.v1", "passed", false, "blockers", List.of(b)));
    }

    static String blockersText(List<Blocker> blockers) {
        StringBuilder sb = new StringBuilder();
        for (Blocker b : blockers) {
            sb.append("  ").append(b.code()).append(" at ").append(b.subject()).append(": ").append(b.message())
                .append('\n');
        }
        return sb.toString();
    }
}
