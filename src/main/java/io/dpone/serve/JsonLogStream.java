package io.dpone.serve;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.connect.Redactor;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code dpone serve --log-format json}: turns every line the process writes to stderr (slf4j-simple's
 * {@code [time ][thread] LEVEL logger - message}, or any other text) into one JSON object per line:
 * {@code {"ts","level","thread","logger","message"}}. The message passes the redaction layer before it is encoded.
 */
public final class JsonLogStream extends PrintStream {
    public JsonLogStream(PrintStream target) {
        super(new Lines(target), true, StandardCharsets.UTF_8);
    }

    /** One JSON log line for {@code line} (without its newline); a JSON event of the logger passes unchanged. */
    public static String toJson(String line, Instant now) {
        if (line.startsWith("{\"ts\":") && line.endsWith("}")) {
            return line; // JsonLogEncoder's event: already one redacted JSON object
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        Matcher m = Lines.SIMPLE.matcher(line);
        doc.put("ts", m.matches() && m.group(1) != null ? m.group(1) : now.toString());
        if (m.matches()) {
            doc.put("level", m.group(3));
            doc.put("thread", m.group(2));
            doc.put("logger", m.group(4));
            doc.put("message", Redactor.global().redact(m.group(5)));
        } else {
            doc.put("level", "INFO");
            doc.put("logger", "stderr");
            doc.put("message", Redactor.global().redact(line));
        }
        try {
            return Lines.MAPPER.writeValueAsString(doc);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final class Lines extends OutputStream {
        static final Pattern SIMPLE = Pattern.compile(
            "^(?:(\\d{4}-\\d{2}-\\d{2}T\\S+) )?\\[(.*?)\\] (TRACE|DEBUG|INFO|WARN|ERROR) (\\S+) - (.*)$");
        static final ObjectMapper MAPPER = new ObjectMapper();
        private final PrintStream target;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);

        Lines(PrintStream target) {
            this.target = target;
        }

        @Override
        public synchronized void write(int b) {
            if (b == '\n') {
                drain();
            } else if (b != '\r') {
                line.write(b);
            }
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            for (int i = 0; i < len; i++) {
                write(b[off + i]);
            }
        }

        @Override
        public synchronized void flush() {
            target.flush();
        }

        private void drain() {
            String text = line.toString(StandardCharsets.UTF_8);
            line.reset();
            if (!text.isBlank()) {
                target.println(toJson(text, Instant.now()));
            }
        }
    }
}
