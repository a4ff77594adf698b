package io.dpone.cdc;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What a stored checkpoint must hold beyond its stream's fields, the same for every offset store: the offset's
 * backend is the stream's backend, the token has the shape of that backend's positions ({@code mssql_cdc}: a
 * {@code 0x}-hex LSN; {@code mssql_change_tracking}: a decimal version; any other backend, such as a local events
 * export, either shape), a resume point, when present, is a JSON object, and a capture instance, when present, is
 * an identifier on an {@code mssql_cdc} offset. A problem is named by its field ({@code offset.backend},
 * {@code offset.token}, {@code offset.resume}, {@code offset.capture_instance}), never by its value.
 */
public final class CheckpointRules {
    /** The SQL Server CDC backend: positions are LSNs written as {@code 0x} hex. */
    public static final String MSSQL_CDC = "mssql_cdc";
    /** The SQL Server Change Tracking backend: positions are versions written in decimal. */
    public static final String MSSQL_CHANGE_TRACKING = "mssql_change_tracking";
    private static final Pattern HEX = Pattern.compile("0[xX][0-9A-Fa-f]+");
    private static final Pattern DECIMAL = Pattern.compile("[0-9]+");
    private static final ObjectMapper MAPPER = JsonMapper.builder()
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

    private CheckpointRules() {
    }

    /** A field of a stored offset that breaks the rules, with what is wrong with it (no value). */
    public record Problem(String field, String rule) {
        public String message() {
            return field + " " + rule;
        }
    }

    /** The first rule {@code offset}, stored for {@code stream}, breaks; empty when it may be used. */
    public static Optional<Problem> check(StreamIdentity stream, CdcOffset offset) {
        if (!stream.backend().equals(offset.backend())) {
            return Optional.of(new Problem("offset.backend", "is not the backend of the checkpoint's stream"));
        }
        Optional<Problem> token = tokenShape(offset.backend(), "offset.token", offset.token());
        if (token.isPresent()) {
            return token;
        }
        if (offset.resume() != null && !isJsonObject(offset.resume())) {
            return Optional.of(new Problem("offset.resume", "is not a JSON object"));
        }
        if (offset.captureInstance() != null && (!MSSQL_CDC.equals(offset.backend())
            || !io.dpone.manifest.Identifier.PATTERN.matcher(offset.captureInstance()).matches())) {
            return Optional.of(new Problem("offset.capture_instance", "is not an identifier of an " + MSSQL_CDC
                + " capture instance"));
        }
        return Optional.empty();
    }

    /** Whether {@code token} has the position shape of {@code backend}'s positions; the problem names {@code field}. */
    public static Optional<Problem> tokenShape(String backend, String field, String token) {
        if (token == null || CdcPosition.parse(token).isEmpty()) {
            return Optional.of(new Problem(field, "is not a position (0x-hex or decimal digits)"));
        }
        if (MSSQL_CDC.equals(backend) && !HEX.matcher(token).matches()) {
            return Optional.of(new Problem(field, "is not an " + MSSQL_CDC + " position (a 0x-hex LSN)"));
        }
        if (MSSQL_CHANGE_TRACKING.equals(backend) && !DECIMAL.matcher(token).matches()) {
            return Optional.of(new Problem(field, "is not an " + MSSQL_CHANGE_TRACKING
                + " position (a decimal version)"));
        }
        return Optional.empty();
    }

    private static boolean isJsonObject(String text) {
        try {
            JsonNode n = MAPPER.readTree(text);
            return n != null && n.isObject();
        } catch (IOException e) {
            return false;
        }
    }
}
