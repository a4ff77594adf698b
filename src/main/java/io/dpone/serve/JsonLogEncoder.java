package io.dpone.serve;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.encoder.EncoderBase;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.connect.Redactor;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code dpone serve --log-format json}: one JSON object per logging event, {@code {"ts","level","thread","logger",
 * "message"}} and, for an event with a throwable, {@code "error"}: its whole stack trace as one field, so a failure
 * is one event a log system can find, not one line per frame. The message and the stack trace pass the redaction
 * layer (third-party client logs too: no endpoint, path or credential). Hand-written over Jackson: Logback's own
 * JsonEncoder writes another document shape (and its own field names) than the one docs/operations.md promises.
 */
public final class JsonLogEncoder extends EncoderBase<ILoggingEvent> {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final byte[] NONE = new byte[0];

    @Override
    public byte[] headerBytes() {
        return NONE;
    }

    @Override
    public byte[] encode(ILoggingEvent event) {
        return line(event).getBytes(StandardCharsets.UTF_8);
    }

    /** The event's JSON line, newline included. */
    static String line(ILoggingEvent event) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("ts", Instant.ofEpochMilli(event.getTimeStamp()).toString());
        doc.put("level", event.getLevel().toString());
        doc.put("thread", event.getThreadName());
        doc.put("logger", event.getLoggerName());
        doc.put("message", Redactor.global().redact(event.getFormattedMessage()));
        IThrowableProxy error = event.getThrowableProxy();
        if (error != null) {
            doc.put("error", Redactor.global().redact(ThrowableProxyUtil.asString(error)));
        }
        try {
            return MAPPER.writeValueAsString(doc) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public byte[] footerBytes() {
        return NONE;
    }

    /** Makes every appender of the root logger write JSON lines (serve's {@code --log-format json}). */
    public static void install() {
        var context = (ch.qos.logback.classic.LoggerContext) org.slf4j.LoggerFactory.getILoggerFactory();
        var root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.iteratorForAppenders().forEachRemaining(appender -> {
            if (appender instanceof ch.qos.logback.core.OutputStreamAppender<ILoggingEvent> out) {
                JsonLogEncoder encoder = new JsonLogEncoder();
                encoder.setContext(context);
                encoder.start();
                out.stop();
                out.setEncoder(encoder);
                out.start();
            }
        });
    }
}
