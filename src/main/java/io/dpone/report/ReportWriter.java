package io.dpone.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.dpone.connect.Redactor;
import java.nio.file.Path;

/** Serialises reports through the redaction layer; the only way a report reaches stdout, stderr or a file. */
public final class ReportWriter {
    private ReportWriter() {
    }

    /** Redacted, pretty JSON of {@code report} (a record or map). */
    public static String json(Object report) {
        Object tree = Json.MAPPER.convertValue(report, Object.class);
        try {
            return Json.MAPPER.writeValueAsString(Redactor.global().redactValue(tree)) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("report is not serialisable", e);
        }
    }

    /** Writes redacted JSON atomically. */
    public static void writeJson(Path file, Object report) {
        AtomicFiles.write(file, json(report));
    }

    /** Writes redacted Markdown atomically. */
    public static void writeMarkdown(Path file, String markdown) {
        AtomicFiles.write(file, Redactor.global().redact(markdown));
    }
}
