package io.dpone.cdc.mssql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.CdcHashes;
import io.dpone.error.DponeException;
import java.util.Map;

/** Reads and writes the {@code resume} text of a live reader's offset (canonical JSON); a bad one is typed. */
final class ResumeJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ResumeJson() {
    }

    static String write(Map<String, Object> fields) {
        return CdcHashes.canonicalJson(fields);
    }

    static JsonNode read(String text) {
        try {
            JsonNode n = MAPPER.readTree(text);
            if (n == null || !n.isObject()) {
                throw invalid();
            }
            return n;
        } catch (java.io.IOException e) {
            throw invalid();
        }
    }

    static DponeException invalid() {
        return CdcBlockers.failure(CdcBlockers.CHECKPOINT_INVALID, "offset.resume",
            "the checkpoint's resume point is not one this reader wrote; restore the stream's checkpoint");
    }
}
