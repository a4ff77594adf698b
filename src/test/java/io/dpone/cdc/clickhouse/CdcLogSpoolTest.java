package io.dpone.cdc.clickhouse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.CdcEvent;
import io.dpone.cdc.CdcOperation;
import io.dpone.cdc.ParallelSlices;
import io.dpone.cdc.StreamIdentity;
import io.dpone.error.DponeException;
import io.dpone.format.ByteBuf;
import io.dpone.source.SourceColumn;
import io.dpone.source.types.DecimalType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CdcLogSpoolTest {
    /** The reference: the BigInteger version as 32 little-endian bytes. */
    private static byte[] expected(BigInteger v) {
        byte[] be = v.toByteArray();
        byte[] le = new byte[32];
        for (int i = 0; i < 32 && i < be.length; i++) {
            le[i] = be[be.length - 1 - i];
        }
        return le;
    }

    private static byte[] written(CdcEvent e) {
        ByteBuf b = new ByteBuf(32);
        CdcLogSpool.writeVersion(CdcLogSpool.limbs(e.positionValue().value()), e.sequence(), e.operation().rank(), b);
        assertEquals(32, b.length());
        return Arrays.copyOf(b.array(), b.length());
    }

    private static CdcEvent event(BigInteger position, long sequence, CdcOperation op) {
        return new CdcEvent(op, "0x" + position.toString(16), sequence, "dbo", "t", Map.of("id", 1), Map.of());
    }

    @Test
    void versionBytesEqualTheBigIntegerVersionAcrossTheWholeRange() {
        Random random = new Random(7);
        CdcOperation[] ops = CdcOperation.values();
        for (int i = 0; i < 20_000; i++) {
            // positions of every width up to the 189 bits a UInt256 version allows; sequences up to 2^63 - 1
            BigInteger position = new BigInteger(1 + random.nextInt(189), random);
            long sequence = i % 3 == 0 ? Long.MAX_VALUE - random.nextInt(4) : random.nextLong() & Long.MAX_VALUE;
            CdcEvent e = event(position, sequence, ops[random.nextInt(ops.length)]);
            assertArrayEquals(expected(e.version()), written(e), "position " + position + " sequence " + sequence);
        }
        BigInteger top = BigInteger.ONE.shiftLeft(189).subtract(BigInteger.ONE);
        CdcEvent max = event(top, Long.MAX_VALUE, ops[ops.length - 1]);
        assertArrayEquals(expected(max.version()), written(max));
    }

    @Test
    void positionsBeyondTheVersionRangeAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> CdcLogSpool.limbs(BigInteger.ONE.shiftLeft(189)));
    }

    @Test
    void lowCardinalityTravelsAsPlainStringAndPayloadIsNullable() {
        assertEquals("String", CdcLogSpool.fileType("dpone_cdc_operation", Map.of()));
        assertEquals("UInt256", CdcLogSpool.fileType("dpone_cdc_version", Map.of()));
        assertEquals("Nullable(String)", CdcLogSpool.fileType("amount", Map.of()));
    }

    private static final StreamIdentity STREAM = new StreamIdentity("orders-cdc",
        "mssql_cdc", "dbo", "orders", "analytics.orders_cdc", List.of("order_id"));
    private static final Map<String, SourceColumn> TYPES = Map.of("amount",
        new SourceColumn("amount", "decimal", true, new DecimalType(10, 2)));

    private static List<Map.Entry<String, CdcEvent>> rows(int n, int badAt) {
        List<Map.Entry<String, CdcEvent>> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("order_id", i);
            data.put("amount", new BigDecimal(i == badAt ? "1.005" : (i % 1000) + ".25"));
            data.put("note", i % 7 == 0 ? null : "note " + i);
            rows.add(Map.entry("id-" + i, new CdcEvent(CdcOperation.insert,
                "0x" + Integer.toHexString(0x100 + i / 10), i % 10, "dbo", "orders", data, Map.of())));
        }
        return rows;
    }

    private static byte[] spooled(Path file, List<Map.Entry<String, CdcEvent>> rows) throws IOException {
        CdcLogSpool.write(file, STREAM, rows, new LinkedHashSet<>(List.of("order_id", "amount",
            "note")), TYPES);
        return Files.readAllBytes(file);
    }

    @Test
    void aSpoolEncodedInSlicesEqualsTheRowsEncodedOneSliceAtATime(@TempDir Path dir) throws Exception {
        // more rows than one round and many slices: the file must be the rows in batch order, byte for byte
        int n = CdcLogSpool.ROUND_ROWS + 3 * ParallelSlices.slices(Integer.MAX_VALUE) * 4096 + 17;
        List<Map.Entry<String, CdcEvent>> rows = rows(n, -1);
        byte[] whole = spooled(dir.resolve("whole"), rows);
        ByteArrayOutputStream pieces = new ByteArrayOutputStream();
        for (int from = 0; from < n; from += 1000) { // below one slice: each piece is encoded by the caller alone
            pieces.write(spooled(dir.resolve("piece"), rows.subList(from, Math.min(n, from + 1000))));
        }
        assertArrayEquals(pieces.toByteArray(), whole);
    }

    @Test
    void aValueOutOfRangeInALaterSliceIsTheTypedBlocker(@TempDir Path dir) {
        int n = 5 * 4096;
        DponeException e = assertThrows(DponeException.class,
            () -> spooled(dir.resolve("bad"), rows(n, n - 3)));
        assertEquals(CdcBlockers.VALUE_OUT_OF_RANGE, e.blockers().get(0).code());
        String message = e.blockers().get(0).message();
        assertTrue(message.contains("amount") && !message.contains("1.005"), message);
    }

    @Test
    void aLinkPlantedAtTheBatchsPredictableSpoolNameIsNeverFollowed(@TempDir Path dir) throws Exception {
        // issue 37: the name is a hash of a deterministic id; before, O_TRUNC went through the link
        Path spool = dir.resolve("spool");
        Path file = CdcLogSpool.file(spool, "analytics.orders_cdc_log", "batch-1");
        assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(
            Files.getPosixFilePermissions(spool)));
        Path victim = Files.writeString(dir.resolve("victim"), "keep");
        Files.createSymbolicLink(file, victim);
        byte[] bytes = spooled(file, rows(10, -1));
        assertEquals("keep", Files.readString(victim), "the link's target is untouched");
        assertTrue(!Files.isSymbolicLink(file) && bytes.length > 0);
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
            Files.getPosixFilePermissions(file)));
    }
}
