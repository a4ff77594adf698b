package io.dpone.source;

import java.util.Comparator;
import java.util.UUID;

/**
 * SQL Server's order of {@code uniqueidentifier} values, which is not their textual order: the 16 bytes as SQL Server
 * stores them (the first three groups of the text little-endian, the last two as written) are compared in the order
 * 10-15, 8-9, 6-7, 4-5, 0-3 ("How are GUIDs compared in SQL Server 2005?", the SQL Server team; .NET's
 * {@code SqlGuid.CompareTo}). In the text {@code 00112233-4455-6677-8899-AABBCCDDEEFF} the most significant bytes are
 * therefore {@code AABBCCDDEEFF}, then {@code 8899}, {@code 7766}, {@code 5544} and {@code 33221100}.
 *
 * <p>dpone never sorts keys for the server (range bounds come from the server's own index order or statistics); this
 * is the order in Java, for checking a split against what the server's comparisons do and for telling which range a
 * key of the source belongs to outside the server.
 */
public final class GuidOrder implements Comparator<UUID> {
    public static final GuidOrder SQL_SERVER = new GuidOrder();

    private GuidOrder() {
    }

    @Override
    public int compare(UUID a, UUID b) {
        long la = a.getLeastSignificantBits();
        long lb = b.getLeastSignificantBits();
        // bytes 10-15: the low 48 bits of the text's second half, big-endian
        int c = Long.compare(la & 0xFFFF_FFFF_FFFFL, lb & 0xFFFF_FFFF_FFFFL);
        if (c != 0) {
            return c;
        }
        // bytes 8-9: the top 16 bits of the second half
        c = Long.compare(la >>> 48, lb >>> 48);
        if (c != 0) {
            return c;
        }
        long ma = a.getMostSignificantBits();
        long mb = b.getMostSignificantBits();
        // bytes 6-7 (stored little-endian: the text's last byte of the third group first), then 4-5, then 0-3
        c = Integer.compare(Short.toUnsignedInt(Short.reverseBytes((short) ma)),
            Short.toUnsignedInt(Short.reverseBytes((short) mb)));
        if (c != 0) {
            return c;
        }
        c = Integer.compare(Short.toUnsignedInt(Short.reverseBytes((short) (ma >>> 16))),
            Short.toUnsignedInt(Short.reverseBytes((short) (mb >>> 16))));
        if (c != 0) {
            return c;
        }
        return Integer.compareUnsigned(Integer.reverseBytes((int) (ma >>> 32)), Integer.reverseBytes((int) (mb >>> 32)));
    }

    /** A value of a uniqueidentifier column as a driver returns it: a {@link UUID} or its 36-character text. */
    public static UUID uuid(Object value) {
        return value instanceof UUID u ? u : UUID.fromString(value.toString());
    }
}
