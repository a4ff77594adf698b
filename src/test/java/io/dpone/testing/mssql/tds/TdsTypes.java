package io.dpone.testing.mssql.tds;

/** TDS data type bytes (MS-TDS 2.2.5.4) and the scale arithmetic the date/time types share. */
final class TdsTypes {
    static final int NULLTYPE = 0x1F;
    static final int INT1 = 0x30;
    static final int BIT = 0x32;
    static final int INT2 = 0x34;
    static final int INT4 = 0x38;
    static final int DATETIM4 = 0x3A;
    static final int FLT4 = 0x3B;
    static final int MONEY = 0x3C;
    static final int DATETIME = 0x3D;
    static final int FLT8 = 0x3E;
    static final int MONEY4 = 0x7A;
    static final int INT8 = 0x7F;
    static final int GUID = 0x24;
    static final int INTN = 0x26;
    static final int DATEN = 0x28;
    static final int TIMEN = 0x29;
    static final int DATETIME2N = 0x2A;
    static final int DATETIMEOFFSETN = 0x2B;
    static final int BITN = 0x68;
    static final int DECIMALN = 0x6A;
    static final int NUMERICN = 0x6C;
    static final int FLTN = 0x6D;
    static final int MONEYN = 0x6E;
    static final int DATETIMN = 0x6F;
    static final int IMAGE = 0x22;
    static final int TEXT = 0x23;
    static final int SSVARIANT = 0x62;
    static final int NTEXT = 0x63;
    static final int BIGVARBIN = 0xA5;
    static final int BIGVARCHR = 0xA7;
    static final int BIGBINARY = 0xAD;
    static final int BIGCHAR = 0xAF;
    static final int NVARCHAR = 0xE7;
    static final int NCHAR = 0xEF;
    static final int XML = 0xF1;
    /** USHORTMAXLEN of a {@code (max)} type: its values are PLP. */
    static final int MAX_LEN = 0xFFFF;
    static final long PLP_NULL = 0xFFFFFFFFFFFFFFFFL;
    static final long PLP_UNKNOWN_LENGTH = 0xFFFFFFFFFFFFFFFEL;

    private TdsTypes() {
    }

    /** Bytes of a {@code time}/{@code datetime2} time part at {@code scale} (3, 4 or 5). */
    static int timeLength(int scale) {
        return scale <= 2 ? 3 : scale <= 4 ? 4 : 5;
    }

    /** 10^(9 - scale): nanoseconds per unit of a time part at {@code scale}. */
    static long nanosPerUnit(int scale) {
        long n = 1;
        for (int i = scale; i < 9; i++) {
            n *= 10;
        }
        return n;
    }

    /** Bytes of a decimal's magnitude plus its sign byte, by precision. */
    static int decimalLength(int precision) {
        return precision <= 9 ? 5 : precision <= 19 ? 9 : precision <= 28 ? 13 : 17;
    }
}
