package io.dpone.testing.mssql.tds;

import java.io.IOException;

/** Token encodings of MS-TDS 2.2.7 that are not about rows: LOGINACK, ENVCHANGE, INFO/ERROR, DONE*, RETURNSTATUS. */
final class Tokens {
    static final int RETURNSTATUS = 0x79;
    static final int COLMETADATA = 0x81;
    static final int ERROR = 0xAA;
    static final int INFO = 0xAB;
    static final int RETURNVALUE = 0xAC;
    static final int LOGINACK = 0xAD;
    static final int ROW = 0xD1;
    static final int NBCROW = 0xD2;
    static final int ENVCHANGE = 0xE3;
    static final int DONE = 0xFD;
    static final int DONEPROC = 0xFE;
    static final int DONEINPROC = 0xFF;
    static final int DONE_MORE = 0x01;
    static final int DONE_ERROR = 0x02;
    static final int DONE_COUNT = 0x10;
    static final int DONE_ATTN = 0x20;
    static final int CMD_SELECT = 0xC1;
    static final int CMD_UPDATE = 0xC5;
    static final int CMD_EXECUTE = 0xE0;
    static final String SERVER_NAME = "dpone-mssql-twin";
    /** What the twin says it is: SQL Server 2022 (16.0), TDS 7.4. */
    static final int TDS_74 = 0x74000004;

    private Tokens() {
    }

    static void loginAck(TdsWriter w) throws IOException {
        String prog = "Microsoft SQL Server";
        w.u8(LOGINACK);
        w.u16(1 + 4 + 1 + prog.length() * 2 + 4);
        w.u8(1); // SQL_TSQL interface
        w.u8(0x74); // TDS version, big-endian
        w.u8(0x00);
        w.u8(0x00);
        w.u8(0x04);
        w.bVarchar(prog);
        w.u8(16);
        w.u8(0);
        w.u16be(4135);
    }

    /** ENVCHANGE with B_VARCHAR values (database 1, language 2, packet size 4). */
    static void envChange(TdsWriter w, int type, String newValue, String oldValue) throws IOException {
        w.u8(ENVCHANGE);
        w.u16(1 + 1 + newValue.length() * 2 + 1 + oldValue.length() * 2);
        w.u8(type);
        w.bVarchar(newValue);
        w.bVarchar(oldValue);
    }

    /** ENVCHANGE 7: the database's SQL collation, 5 bytes. */
    static void collationChange(TdsWriter w, byte[] collation) throws IOException {
        w.u8(ENVCHANGE);
        w.u16(1 + 1 + collation.length + 1);
        w.u8(7);
        w.u8(collation.length);
        w.bytes(collation);
        w.u8(0);
    }

    static void message(TdsWriter w, int token, int number, int state, int severity, String text) throws IOException {
        String server = SERVER_NAME;
        w.u8(token);
        w.u16(4 + 1 + 1 + 2 + text.length() * 2 + 1 + server.length() * 2 + 1 + 4);
        w.i32(number);
        w.u8(state);
        w.u8(severity);
        w.usVarchar(text);
        w.bVarchar(server);
        w.bVarchar("");
        w.i32(1);
    }

    static void done(TdsWriter w, int token, int status, int command, long count) throws IOException {
        w.u8(token);
        w.u16(status);
        w.u16(command);
        w.i64(count);
    }

    static void returnStatus(TdsWriter w, int status) throws IOException {
        w.u8(RETURNSTATUS);
        w.i32(status);
    }
}
