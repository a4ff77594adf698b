package io.dpone.cdc;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
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

    private CdcHashes() {
    }

    public static String canonicalJson(Object value) {
        try {
            return CANONICAL.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("value has no canonical JSON form", e);
        }
    }

    public static String sha256Hex(String text) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(md.digest(text.getBytes(StandardCharsets.UTF_8)));
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
