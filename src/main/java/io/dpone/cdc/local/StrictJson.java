package io.dpone.cdc.local;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.dpone.cdc.CdcBlockers;
import io.dpone.connect.BoundedFile;
import io.dpone.error.BlockerCode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Reads a local JSON file strictly: bytes must be UTF-8 (a decoder that reports, never replaces), the text one
 * JSON value with no duplicate keys and nothing after it; numbers with a fraction keep their exact decimal value and scale ({@code 19.90}).
 * Failures are typed and name the file by its file name only.
 *
 * <p>Every file is bounded before it is read ({@link BoundedFile}: a regular file's size first, anything else through
 * a stream that stops past the bound): a checkpoint at {@link #MAX_CHECKPOINT_BYTES}
 * ({@code cdc_runtime.checkpoint_too_large}), an events file at {@link #MAX_EVENTS_BYTES}
 * ({@code cdc_runtime.events_too_large}); any other file (the local sink's rows) at the events bound, under its
 * caller's code. The parser nests at most {@link #MAX_DEPTH} levels.
 */
final class StrictJson {
    /** The largest checkpoint read: 1 MiB (a checkpoint is one offset and the stream's identity). */
    static final int MAX_CHECKPOINT_BYTES = 1024 * 1024;
    /** The largest events file read: 1 GiB (one tick reads at most 1,000,000 changes). */
    static final int MAX_EVENTS_BYTES = 1024 * 1024 * 1024;
    /** The deepest nesting of objects and arrays accepted. */
    static final int MAX_DEPTH = 64;

    static final ObjectMapper MAPPER = JsonMapper.builder(new com.fasterxml.jackson.core.JsonFactoryBuilder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build()).build())
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
        .build();

    private StrictJson() {
    }

    /** The JSON tree of {@code file}; {@code code} and {@code subject} type every failure. */
    static JsonNode read(Path file, String code, String subject) {
        String name = String.valueOf(file.getFileName());
        boolean checkpoint = CdcBlockers.CHECKPOINT_INVALID.equals(code);
        int bound = checkpoint ? MAX_CHECKPOINT_BYTES : MAX_EVENTS_BYTES;
        byte[] bytes;
        try {
            bytes = BoundedFile.read(file, bound);
        } catch (BoundedFile.TooLarge e) {
            String tooLarge = checkpoint ? BlockerCode.CDC_CHECKPOINT_TOO_LARGE.code()
                : CdcBlockers.EVENTS_UNREADABLE.equals(code) ? BlockerCode.CDC_EVENTS_TOO_LARGE.code() : code;
            throw new io.dpone.error.DponeException(CdcBlockers.blocker(tooLarge, subject,
                name + " holds more than " + bound + " bytes; it was not read", Map.of("limit_bytes", bound)));
        } catch (NoSuchFileException e) {
            throw CdcBlockers.failure(code, subject, name + " does not exist");
        } catch (BoundedFile.NotRegular e) {
            throw CdcBlockers.failure(code, subject, name + " is not a regular file (a FIFO, a device or a socket); "
                + "it was not opened");
        } catch (IOException e) {
            throw CdcBlockers.failure(code, subject, name + " cannot be read: " + e.getClass().getSimpleName());
        }
        String text = decodeUtf8(bytes, name, code, subject);
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        try {
            JsonNode node = MAPPER.readTree(text);
            if (node == null || node.isMissingNode()) {
                throw CdcBlockers.failure(code, subject, name + " is empty");
            }
            return node;
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
            throw new io.dpone.error.DponeException(CdcBlockers.blocker(code, subject,
                name + " is not valid JSON" + where + ": " + e.getOriginalMessage(),
                at == null ? Map.of() : Map.of("line", at.getLineNr(), "column", at.getColumnNr())));
        }
    }

    private static String decodeUtf8(byte[] bytes, String name, String code, String subject) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length + 1);
        CoderResult r = decoder.decode(in, out, true);
        if (!r.isError()) {
            r = decoder.flush(out);
        }
        if (r.isError()) {
            throw new io.dpone.error.DponeException(CdcBlockers.blocker(code, subject,
                name + " is not valid UTF-8 at byte offset " + in.position(), Map.of("byte_offset", in.position())));
        }
        out.flip();
        return out.toString();
    }
}
