package io.dpone.clickhouse;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes {@code JSONCompactEachRow} output into rows of text values, shared by both endpoints. Number tokens keep
 * their exact original text (a tree parse would turn Decimal(38,10) into a double), strings are unescaped, SQL NULL
 * is {@code null}, and nested arrays/objects come back as compact JSON text.
 */
public final class CompactRows {
    private static final JsonFactory FACTORY = new JsonFactory();

    private CompactRows() {
    }

    public static List<List<String>> parse(byte[] bytes) {
        try (JsonParser p = FACTORY.createParser(bytes)) {
            return parse(p);
        } catch (IOException e) {
            throw new UncheckedIOException("malformed ClickHouse result", e);
        }
    }

    public static List<List<String>> parse(InputStream in) throws IOException {
        try (JsonParser p = FACTORY.createParser(in)) {
            return parse(p);
        }
    }

    private static List<List<String>> parse(JsonParser p) throws IOException {
        List<List<String>> rows = new ArrayList<>();
        for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
            if (t != JsonToken.START_ARRAY) {
                throw new IOException("expected a row array");
            }
            List<String> row = new ArrayList<>();
            for (JsonToken v = p.nextToken(); v != JsonToken.END_ARRAY; v = p.nextToken()) {
                row.add(value(p, v));
            }
            rows.add(row);
        }
        return rows;
    }

    private static String value(JsonParser p, JsonToken t) throws IOException {
        return switch (t) {
            case VALUE_NULL -> null;
            case VALUE_STRING, VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT, VALUE_TRUE, VALUE_FALSE -> p.getText();
            case START_ARRAY, START_OBJECT -> nested(p);
            default -> throw new IOException("unexpected token " + t);
        };
    }

    private static String nested(JsonParser p) throws IOException {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.copyCurrentStructure(p);
        }
        return out.toString();
    }
}
