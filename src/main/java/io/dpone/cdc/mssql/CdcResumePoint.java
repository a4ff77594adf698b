package io.dpone.cdc.mssql;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where a SQL Server CDC batch stopped inside one LSN (a large transaction): the last applied change row's
 * {@code __$start_lsn}, {@code __$command_id}, {@code __$seqval} and {@code __$operation}, and its ordinal among
 * the rows of that LSN (the event {@code sequence}). The next batch starts with the rows of that LSN strictly after
 * {@code (command_id, seqval, operation)}, so a boundary in the middle of a transaction resumes exactly.
 */
record CdcResumePoint(Lsn lsn, int commandId, byte[] seqval, int operation, long ordinal) {
    String toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("lsn", lsn.hex());
        m.put("command_id", commandId);
        m.put("seqval", Lsn.hex(seqval));
        m.put("operation", operation);
        m.put("ordinal", ordinal);
        return ResumeJson.write(m);
    }

    static CdcResumePoint parse(String text) {
        JsonNode n = ResumeJson.read(text);
        try {
            String seq = n.path("seqval").asText("");
            if (!n.path("command_id").canConvertToInt() || !n.path("operation").canConvertToInt()
                || !n.path("ordinal").canConvertToLong() || !seq.startsWith("0x")) {
                throw ResumeJson.invalid();
            }
            return new CdcResumePoint(Lsn.parse(n.path("lsn").asText("")), n.path("command_id").asInt(),
                HexFormat.of().parseHex(seq.substring(2)), n.path("operation").asInt(), n.path("ordinal").asLong());
        } catch (IllegalArgumentException e) {
            throw ResumeJson.invalid();
        }
    }
}
