package io.dpone.testing.mssql.tds;

import java.io.IOException;

/** PRELOGIN (MS-TDS 2.2.6.5): the client's encryption request, and the twin's answer. */
final class Prelogin {
    private static final int VERSION = 0x00;
    private static final int ENCRYPTION = 0x01;
    private static final int INSTOPT = 0x02;
    private static final int THREADID = 0x03;
    private static final int MARS = 0x04;
    private static final int TERMINATOR = 0xFF;

    private Prelogin() {
    }

    /** The client's ENCRYPTION option (0 off, 1 on, 2 not supported, 3 required); 2 when absent. */
    static int encryption(byte[] p) {
        PayloadReader r = new PayloadReader(p);
        while (r.hasMore()) {
            int token = r.u8();
            if (token == TERMINATOR) {
                break;
            }
            int offset = (r.u8() << 8) | r.u8();
            int length = (r.u8() << 8) | r.u8();
            if (token == ENCRYPTION && length >= 1 && offset < p.length) {
                return p[offset] & 0xFF;
            }
        }
        return 2;
    }

    /** VERSION 16.0.4135, ENCRYPTION, INSTOPT, THREADID, MARS off. */
    static void writeResponse(TdsWriter w, int encryption) throws IOException {
        int[][] options = {{VERSION, 6}, {ENCRYPTION, 1}, {INSTOPT, 1}, {THREADID, 0}, {MARS, 1}};
        int offset = options.length * 5 + 1;
        for (int[] o : options) {
            w.u8(o[0]);
            w.u16be(offset);
            w.u16be(o[1]);
            offset += o[1];
        }
        w.u8(TERMINATOR);
        w.u8(16); // major
        w.u8(0); // minor
        w.u16be(4135); // build
        w.u16be(0); // sub-build
        w.u8(encryption);
        w.u8(0);
        w.u8(0);
    }
}
