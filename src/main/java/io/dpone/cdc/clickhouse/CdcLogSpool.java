package io.dpone.cdc.clickhouse;

import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.CdcEvent;
import io.dpone.cdc.CdcHashes;
import io.dpone.cdc.ParallelSlices;
import io.dpone.cdc.StreamIdentity;
import io.dpone.connect.PrivateFiles;
import io.dpone.error.DponeException;
import io.dpone.format.ByteBuf;
import io.dpone.format.RowBinaryEncoder;
import io.dpone.source.SourceColumn;
import io.dpone.source.types.ValueOutOfRangeException;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The spool file of one CDC log insert, RowBinary: per row the payload columns (typed ones as {@code Nullable(T)}
 * with the full refresh's encoding, the others {@code Nullable(String)}: the canonical JSON text; the NULL flag for
 * SQL NULL) then {@link #ROW_COLUMNS} with their table types
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
    /** 256 bits of UInt256 less the 67 low bits of sequence and rank. */
    private static final int POSITION_BITS = 256 - 67;

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
    static String fileType(String column, Map<String, SourceColumn> types) {
        String t = CdcLogTable.COLUMNS.get(column);
        if (t == null) {
            SourceColumn typed = types.get(column);
            return typed == null ? "Nullable(String)" : "Nullable(" + typed.type().clickHouseType() + ")";
        }
        return t.equals("LowCardinality(String)") ? "String" : t;
    }

    /**
     * The spool file of batch {@code batchId} into the log {@code target} ({@code db.table}), under {@code dir}
     * (created if missing); absolute, as the insert names it to ClickHouse.
     */
    static Path file(Path dir, String target, String batchId) {
        try {
            PrivateFiles.ownDirectory(dir); // 0700; refused when another user owns it (a link planted at its name)
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dir.resolve("cdc-batch-" + CdcHashes.sha256Hex(target + "\n" + batchId).substring(0, 32)
            + EXTENSION).toAbsolutePath();
    }

    /** Rows encoded per round: the rounds' slices encode at once, then go to the file in order (bounded memory). */
    static final int ROUND_ROWS = 1 << 16;

    static void write(Path spool, StreamIdentity stream, List<Map.Entry<String, CdcEvent>> rows, Set<String> payload,
                      Map<String, SourceColumn> types) {
        List<String> columns = List.copyOf(payload);
        SourceColumn[] typed = columns.stream().map(types::get).toArray(SourceColumn[]::new);
        try (OutputStream out = new BufferedOutputStream(PrivateFiles.replace(spool), 1 << 16)) {
            for (int round = 0; round < rows.size(); round += ROUND_ROWS) {
                int base = round;
                int size = Math.min(ROUND_ROWS, rows.size() - round);
                // each row's bytes depend on that row only (the unique-key hash is its SHA-256): slices encode at
                // once into their own buffers, written in row order
                for (ByteBuf slice : ParallelSlices.map(size,
                    (from, to) -> encode(stream, rows.subList(base + from, base + to), columns, typed))) {
                    slice.writeTo(out);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the CDC batch spool file", e);
        }
    }

    /** The RowBinary rows of {@code rows}, in order. */
    private static ByteBuf encode(StreamIdentity stream, List<Map.Entry<String, CdcEvent>> rows,
                                  List<String> columns, SourceColumn[] typed) {
        ByteBuf buf = new ByteBuf(rows.size() * 160);
        BigInteger lastPosition = null;
        long[] positionLimbs = null;
        for (Map.Entry<String, CdcEvent> en : rows) {
            CdcEvent e = en.getValue();
            for (int i = 0; i < typed.length; i++) {
                SourceColumn type = typed[i];
                Object v = e.data().get(columns.get(i));
                if (v == null) {
                    buf.writeByte(1);
                } else if (type == null) {
                    buf.writeByte(0);
                    RowBinaryEncoder.writeString(CdcHashes.canonicalJson(v), buf);
                } else {
                    buf.writeByte(0);
                    RowBinaryEncoder.writeValue(type.type(), coerce(stream, type, e, v), buf);
                }
            }
            RowBinaryEncoder.writeString(CdcHashes.uniqueKeyHash(stream.uniqueKeys(), e.data()), buf);
            RowBinaryEncoder.writeString(en.getKey(), buf);
            RowBinaryEncoder.writeString(e.operation().name(), buf);
            RowBinaryEncoder.writeString(e.position(), buf);
            buf.writeLongLE(e.sequence());
            BigInteger position = e.positionValue().value();
            if (position != lastPosition) { // the events of one LSN share one parsed position
                lastPosition = position;
                positionLimbs = limbs(position);
            }
            writeVersion(positionLimbs, e.sequence(), e.operation().rank(), buf);
        }
        return buf;
    }

    /** The canonical value of a typed column; one that does not fit is {@code cdc_runtime.value_out_of_range}. */
    private static Object coerce(StreamIdentity stream, SourceColumn column, CdcEvent e, Object v) {
        try {
            return column.type().coerce(v);
        } catch (ValueOutOfRangeException x) {
            throw new DponeException(CdcBlockers.valueOutOfRange(stream, "data." + column.name(), column.name(),
                column.sourceType(), e, x.getMessage()));
        }
    }

    /** The three low 64-bit limbs of a position, little-endian; a position has at most 189 bits. */
    static long[] limbs(BigInteger position) {
        if (position.signum() < 0 || position.bitLength() > POSITION_BITS) {
            throw new IllegalArgumentException("position gives a version beyond UInt256");
        }
        return new long[] {position.longValue(), position.shiftRight(64).longValue(),
            position.shiftRight(128).longValue()};
    }

    /**
     * {@link CdcEvent#version()} = {@code position * 2^67 + sequence * 2^3 + rank} as ClickHouse's UInt256 (32 bytes,
     * little-endian), without BigInteger arithmetic per event: the low 67 bits are exactly {@code sequence} and
     * {@code rank} (sequence < 2^64, rank < 2^3), the position fills the bits above.
     */
    static void writeVersion(long[] position, long sequence, int rank, ByteBuf out) {
        out.writeLongLE((sequence << 3) | rank);
        out.writeLongLE((sequence >>> 61) | (position[0] << 3));
        out.writeLongLE((position[0] >>> 61) | (position[1] << 3));
        out.writeLongLE((position[1] >>> 61) | (position[2] << 3));
    }
}
