package io.dpone.cdc;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The hashes that identify CDC rows and events. Canonical JSON is compact (no spaces), UTF-8, with values as
 * typed: integers as digits, decimals in plain notation with their scale ({@code 19.90}), strings JSON-escaped,
 * times as ISO-8601. Hashes are lower-case SHA-256 hex.
 *
 * <p>{@code dpone_cdc_unique_key_hash} = SHA-256 of the canonical JSON array of the unique-key values in
 * {@code --unique-key} order: {@code order_id = 1} hashes {@code [1]}; keys {@code order_id, line_no} with values
 * 1 and 2 hash {@code [1,2]}.
 */
public final class CdcHashes {
    private static final ObjectMapper CANONICAL = new ObjectMapper()
        .registerModule(new JavaTimeModule())
        .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
        .disable(SerializationFeature.INDENT_OUTPUT)
        .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(CdcHashes::newSha256);
    private static final HexFormat HEX = HexFormat.of();

    private CdcHashes() {
    }

    /**
     * The canonical JSON of {@code value}. Integers, {@code BigDecimal}, booleans, strings without characters that
     * JSON escapes, {@code LocalDateTime}, {@code LocalDate}, and lists of those are written directly (the same text Jackson writes); anything else goes
     * through the canonical Jackson mapper. {@code CdcIdentityPinTest} pins the output.
     */
    public static String canonicalJson(Object value) {
        StringBuilder out = new StringBuilder(64);
        return appendPlain(out, value) ? out.toString() : jackson(value);
    }

    private static String jackson(Object value) {
        try {
            return CANONICAL.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("value has no canonical JSON form", e);
        }
    }

    /** Appends the canonical JSON of {@code value} when it has a plain form; false (out is then undefined) if not. */
    private static boolean appendPlain(StringBuilder out, Object value) {
        if (value instanceof String s) {
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c < 0x20 || c == '"' || c == '\\') {
                    return false;
                }
            }
            out.append('"').append(s).append('"');
            return true;
        }
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte
            || value instanceof BigInteger || value instanceof Boolean) {
            out.append(value);
            return true;
        }
        if (value instanceof LocalDateTime t) {
            // what the JavaTimeModule serializer writes with WRITE_DATES_AS_TIMESTAMPS off
            out.append('"');
            isoLocalDateTime(out, t);
            out.append('"');
            return true;
        }
        if (value instanceof LocalDate t) {
            out.append('"').append(DateTimeFormatter.ISO_LOCAL_DATE.format(t)).append('"');
            return true;
        }
        if (value instanceof BigDecimal d) {
            out.append(d.toPlainString());
            return true;
        }
        if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                if (!appendPlain(out, list.get(i))) {
                    return false;
                }
            }
            out.append(']');
            return true;
        }
        return false;
    }

    /**
     * {@code DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(t)} without the formatter's generic machinery: seconds
     * always, the fraction with its trailing zeros dropped; years outside 0..9999 (sign, wider field) go through the
     * formatter.
     */
    static void isoLocalDateTime(StringBuilder out, LocalDateTime t) {
        int year = t.getYear();
        if (year < 0 || year > 9999) {
            out.append(DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(t));
            return;
        }
        padded(out, year, 4);
        out.append('-');
        padded(out, t.getMonthValue(), 2);
        out.append('-');
        padded(out, t.getDayOfMonth(), 2);
        out.append('T');
        padded(out, t.getHour(), 2);
        out.append(':');
        padded(out, t.getMinute(), 2);
        out.append(':');
        padded(out, t.getSecond(), 2);
        int nano = t.getNano();
        if (nano > 0) {
            int digits = 9;
            while (nano % 10 == 0) {
                nano /= 10;
                digits--;
            }
            out.append('.');
            padded(out, nano, digits);
        }
    }

    private static void padded(StringBuilder out, int value, int width) {
        for (int p = width - 1, scale = pow10(p); p > 0 && value < scale; p--, scale /= 10) {
            out.append('0');
        }
        out.append(value);
    }

    private static int pow10(int p) {
        int r = 1;
        for (int i = 0; i < p; i++) {
            r *= 10;
        }
        return r;
    }

    /**
     * SHA-256 of {@code text}'s exact UTF-8 bytes. A lone surrogate has none (the JDK's encoder would write {@code ?},
     * so two distinct texts would hash alike): it is refused with {@link IllegalArgumentException}; the batch policy
     * and every sink refuse such text typed before it gets here ({@link ExactText}).
     */
    public static String sha256Hex(String text) {
        if (!ExactText.exact(text)) {
            throw new IllegalArgumentException("text with an unpaired UTF-16 surrogate has no exact UTF-8 bytes");
        }
        MessageDigest md = sha256();
        return HEX.formatHex(md.digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** This thread's SHA-256 digest, reset (a caller that feeds it in parts must finish with {@code digest()}). */
    public static MessageDigest sha256() {
        MessageDigest md = SHA256.get();
        md.reset();
        return md;
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is unavailable", e);
        }
    }

    /** {@code dpone_cdc_unique_key_hash} of a row; every key must be present and non-null in {@code data}. */
    public static String uniqueKeyHash(List<String> uniqueKeys, Map<String, Object> data) {
        List<Object> values = new ArrayList<>(uniqueKeys.size());
        for (String key : uniqueKeys) {
            Object v = data.get(key);
            if (v == null) {
                throw new IllegalArgumentException("unique-key column " + key + " is missing or null");
            }
            values.add(v);
        }
        return sha256Hex(canonicalJson(values));
    }
}
