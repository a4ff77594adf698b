package io.dpone.cdc.clickhouse;

import io.dpone.cdc.CdcEvent;
import io.dpone.cdc.CdcHashes;
import io.dpone.cdc.StreamIdentity;
import io.dpone.format.ByteBuf;
import io.dpone.format.RowBinaryEncoder;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The spool file of one CDC log insert, RowBinary: per row the payload columns ({@code Nullable(String)}: the
 * canonical JSON text, or the NULL flag for SQL NULL) then {@link #ROW_COLUMNS} with their table types
 * ({@code String}, {@code UInt64} little-endian, {@code UInt256} as 32 little-endian bytes). The columns equal for
 * every row of a batch (commit time, run id, batch id) are not spooled: the insert selects them as literals.
 * RowBinary rather than TabSeparated: nothing to escape on this side, nothing to parse or unescape on ClickHouse's,
 * and the version goes as its 32 bytes instead of up to 78 decimal digits. The spool is a transfer file only
 * (durability is the synchronous insert's), so it is not fsynced.
 */
final class CdcLogSpool {
    static final String FORMAT = "RowBinary";
    static final String EXTENSION = ".rowbinary";
    /** The metadata columns written per row, in file order after the payload columns. */
    static final List<String> ROW_COLUMNS = List.of("dpone_cdc_unique_key_hash", "dpone_cdc_event_id",
        "dpone_cdc_operation", "dpone_cdc_position", "dpone_cdc_sequence", "dpone_cdc_version");
    private static final int UINT256_BYTES = 32;

    private CdcLogSpool() {
    }

    /** The file columns: {@code payload} then {@link #ROW_COLUMNS}. */
    static List<String> columns(Set<String> payload) {
        List<String> c = new ArrayList<>(payload);
        c.addAll(ROW_COLUMNS);
        return c;
    }

    /**
     * The file-side type of a spooled column: payload columns {@code Nullable(String)}, the metadata columns their
     * table type, except {@code LowCardinality(String)}, which the file carries as plain {@code String}.
     */
    static String fileType(String column, Map<String, String> logColumns) {
        String t = logColumns.get(column);
        if (t == null) {
            return "Nullable(String)";
        }
        return t.equals("LowCardinality(String)") ? "String" : t;
    }

    static void write(Path spool, StreamIdentity stream, List<Map.Entry<String, CdcEvent>> rows, Set<String> payload) {
        ByteBuf row = new ByteBuf(4096);
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(spool), 1 << 16)) {
            for (Map.Entry<String, CdcEvent> en : rows) {
                CdcEvent e = en.getValue();
                row.reset();
                for (String c : payload) {
                    Object v = e.data().get(c);
                    if (v == null) {
                        row.writeByte(1);
                    } else {
                        row.writeByte(0);
                        RowBinaryEncoder.writeString(CdcHashes.canonicalJson(v), row);
                    }
                }
                RowBinaryEncoder.writeString(CdcHashes.uniqueKeyHash(stream.uniqueKeys(), e.data()), row);
                RowBinaryEncoder.writeString(en.getKey(), row);
                RowBinaryEncoder.writeString(e.operation().name(), row);
                RowBinaryEncoder.writeString(e.position(), row);
                row.writeLongLE(e.sequence());
                writeUInt256(e.version(), row);
                row.writeTo(out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the CDC batch spool file", e);
        }
    }

    /** {@code v} (0 <= v < 2^256, checked by the applier) as ClickHouse's UInt256: 32 bytes, little-endian. */
    static void writeUInt256(BigInteger v, ByteBuf out) {
        if (v.signum() < 0 || v.bitLength() > 8 * UINT256_BYTES) {
            throw new IllegalArgumentException("version outside UInt256");
        }
        byte[] be = v.toByteArray(); // big-endian two's complement; a leading 0 byte when the top bit is set
        for (int i = 0; i < UINT256_BYTES; i++) {
            int src = be.length - 1 - i;
            out.writeByte(src >= 0 ? be[src] : 0);
        }
    }
}
