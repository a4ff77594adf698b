package io.dpone.cdc.mssql;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a Change Tracking batch stopped inside one version: the version and the primary-key values (canonical JSON
 * of the typed values, in key order) of the last applied row. The next batch reads the rows of that version with a
 * greater key, then the later versions.
 */
record CtResumePoint(long version, List<JsonNode> key) {
    static String toJson(long version, List<Object> key) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("version", version);
        m.put("key", key);
        return ResumeJson.write(m);
    }

    static CtResumePoint parse(String text, int keyColumns) {
        JsonNode n = ResumeJson.read(text);
        JsonNode key = n.path("key");
        if (!n.path("version").canConvertToLong() || !key.isArray() || key.size() != keyColumns) {
            throw ResumeJson.invalid();
        }
        List<JsonNode> values = new ArrayList<>();
        key.forEach(values::add);
        return new CtResumePoint(n.path("version").asLong(), values);
    }
}
