package io.dpone.cli;

import io.dpone.connect.Redactor;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Wraps stdout/stderr of the CLI process so every line, including third-party log lines (Camel, drivers, the AWS
 * SDK), passes the redaction layer before it leaves the process. Buffers until a newline; flush passes partial
 * lines (the progress display) through as well.
 */
final class RedactingPrintStream extends PrintStream {
    RedactingPrintStream(PrintStream target) {
        super(new LineRedactor(target), true, StandardCharsets.UTF_8);
    }

    private static final class LineRedactor extends OutputStream {
        private final PrintStream target;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);

        LineRedactor(PrintStream target) {
            this.target = target;
        }

        @Override
        public synchronized void write(int b) {
            line.write(b);
            if (b == '\n') {
                drain();
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
            drain();
            target.flush();
        }

        private void drain() {
            if (line.size() > 0) {
                target.print(Redactor.global().redact(line.toString(StandardCharsets.UTF_8)));
                line.reset();
            }
        }
    }
}
