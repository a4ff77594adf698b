package io.dpone.cdc.clickhouse;

import io.dpone.cdc.CdcEvent;
import io.dpone.cdc.CdcHashes;
import io.dpone.cdc.StreamIdentity;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The spool file of one CDC log insert, TabSeparated: per row the payload columns (canonical JSON text, {@code \N}
 * for SQL NULL) then {@link #ROW_COLUMNS}. The columns equal for every row of a batch (commit time, run id, batch
 * id) are not spooled: the insert selects them as literals. Backslash, tab, newline, carriage return, NUL,
 * backspace and form feed are escaped as ClickHouse's TabSeparated reads them; the insert pins those rules with
 * {@link io.dpone.format.TabSeparatedFormat#INSERT_SETTINGS}. The spool is a transfer file only (durability is the
 * synchronous insert's), so it is not fsynced.
 */
final class CdcLogSpool {
    static final String FORMAT = "TabSeparated";
    /** The metadata columns written per row, in file order after the payload columns. */
    static final List<String> ROW_COLUMNS = List.of("dpone_cdc_unique_key_hash", "dpone_cdc_event_id",
        "dpone_cdc_operation", "dpone_cdc_position", "dpone_cdc_sequence", "dpone_cdc_version");
    private static final char[] ESCAPE = new char[128];

    static {
        ESCAPE['\\'] = '\\';
        ESCAPE['\t'] = 't';
        ESCAPE['\n'] = 'n';
        ESCAPE['\r'] = 'r';
        ESCAPE['\0'] = '0';
        ESCAPE['\b'] = 'b';
        ESCAPE['\f'] = 'f';
    }

    private CdcLogSpool() {
    }

    /** The file columns: {@code payload} then {@link #ROW_COLUMNS}. */
    static List<String> columns(Set<String> payload) {
        List<String> c = new ArrayList<>(payload);
        c.addAll(ROW_COLUMNS);
        return c;
    }

    static void write(Path spool, StreamIdentity stream, List<Map.Entry<String, CdcEvent>> rows, Set<String> payload) {
        try (Writer w = Files.newBufferedWriter(spool, StandardCharsets.UTF_8)) {
            for (Map.Entry<String, CdcEvent> en : rows) {
                CdcEvent e = en.getValue();
                for (String c : payload) {
                    Object v = e.data().get(c);
                    if (v == null) {
                        w.write("\\N");
                    } else {
                        escaped(w, CdcHashes.canonicalJson(v));
                    }
                    w.write('\t');
                }
                w.write(CdcHashes.uniqueKeyHash(stream.uniqueKeys(), e.data()));
                w.write('\t');
                w.write(en.getKey());
                w.write('\t');
                w.write(e.operation().name());
                w.write('\t');
                escaped(w, e.position());
                w.write('\t');
                w.write(Long.toString(e.sequence()));
                w.write('\t');
                w.write(e.version().toString());
                w.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the CDC batch spool file", e);
        }
    }

    static void escaped(Writer w, String s) throws IOException {
        int from = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 128 && ESCAPE[c] != 0) {
                w.write(s, from, i - from);
                w.write('\\');
                w.write(ESCAPE[c]);
                from = i + 1;
            }
        }
        w.write(s, from, s.length() - from);
    }
}
