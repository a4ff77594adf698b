package io.dpone.testing.mssql.tds;

/**
 * The fields of a LOGIN7 message (MS-TDS 2.2.6.4) the twin uses. The password arrives obfuscated: each byte's
 * nibbles swapped, then XOR 0xA5; it is decoded only to compare it with the configured one and never kept.
 */
record Login7(int tdsVersion, int packetSize, String user, char[] password, String database, String appName) {
    static Login7 parse(byte[] p) {
        PayloadReader r = new PayloadReader(p);
        r.i32(); // length
        int version = Integer.reverseBytes(r.i32());
        int packetSize = r.i32();
        return new Login7(version, packetSize, field(p, 40), password(p), field(p, 68), field(p, 48));
    }

    private static String field(byte[] p, int offsetAt) {
        PayloadReader r = new PayloadReader(p, offsetAt);
        int offset = r.u16();
        int chars = r.u16();
        return new PayloadReader(p, offset).ucs2(chars);
    }

    private static char[] password(byte[] p) {
        PayloadReader r = new PayloadReader(p, 44);
        int offset = r.u16();
        int chars = r.u16();
        byte[] b = new PayloadReader(p, offset).bytes(chars * 2);
        for (int i = 0; i < b.length; i++) {
            int x = (b[i] & 0xFF) ^ 0xA5;
            b[i] = (byte) (((x & 0x0F) << 4) | ((x & 0xF0) >>> 4));
        }
        char[] c = new char[chars];
        for (int i = 0; i < chars; i++) {
            c[i] = (char) ((b[2 * i] & 0xFF) | ((b[2 * i + 1] & 0xFF) << 8));
        }
        java.util.Arrays.fill(b, (byte) 0);
        return c;
    }
}
