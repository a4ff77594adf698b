package io.dpone.clickhouse;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * Reads {@code result_rows} from a ClickHouse HTTP response's {@code X-ClickHouse-Summary} header
 * ({@code {"read_rows":"10",...,"result_rows":"10","result_bytes":"112",...}}, numbers quoted), telling a header that
 * is missing or cut short apart from one that states no {@code result_rows} (a server older than 22.8).
 */
final class ResponseSummary {
    /** No summary header at all. */
    static final long MISSING = -1;
    /** A summary that is not one whole JSON object (the head was cut inside it). */
    static final long MALFORMED = -2;
    /** A whole summary without {@code result_rows}. */
    static final long UNSTATED = 0;

    private static final JsonFactory FACTORY = new JsonFactory();

    private ResponseSummary() {
    }

    /** The summary's {@code result_rows}, or {@link #MISSING}, {@link #MALFORMED}, {@link #UNSTATED} (0). */
    static long resultRows(String summary) {
        if (summary == null) {
            return MISSING;
        }
        long rows = UNSTATED;
        try (JsonParser p = FACTORY.createParser(summary)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return MALFORMED;
            }
            for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
                if (t != JsonToken.FIELD_NAME) {
                    return MALFORMED;
                }
                String name = p.currentName();
                JsonToken v = p.nextToken();
                if (v == null) {
                    return MALFORMED;
                }
                if (v.isStructStart()) {
                    p.skipChildren();
                } else if ("result_rows".equals(name)) {
                    rows = Long.parseLong(p.getText().trim());
                    if (rows < 0) {
                        return MALFORMED;
                    }
                }
            }
            return p.nextToken() == null ? rows : MALFORMED;
        } catch (IOException | NumberFormatException e) {
            return MALFORMED;
        }
    }
}
