package io.dpone.testing.mssql.tds;

import java.nio.charset.Charset;
import java.util.Locale;
import java.util.Map;

/**
 * SQL Server collation names as the 5-byte TDS collation (MS-TDS 2.2.5.1.2: LCID in bits 0-19, the comparison flags
 * in bits 20-27, version in 28-31, then the SQL sort id) and the code page a {@code char}/{@code varchar} value of
 * that collation is stored in. A SQL collation ({@code SQL_Latin1_General_CP1_CI_AS}) is named by its sort id; a
 * Windows collation ({@code Chinese_PRC_CI_AS}) by its locale, with sort id 0; {@code _UTF8} collations set the UTF-8
 * flag. The table holds the collations the twin's tests and users name; an unknown one is refused when declared.
 */
public final class Collations {
    private static final int IGNORE_CASE = 1 << 20;
    private static final int IGNORE_ACCENT = 1 << 21;
    private static final int IGNORE_KANA = 1 << 22;
    private static final int IGNORE_WIDTH = 1 << 23;
    private static final int BINARY = 1 << 24;
    private static final int BINARY2 = 1 << 25;
    private static final int UTF8 = 1 << 26;

    /** Windows collation locale prefixes: LCID and the Java charset mssql-jdbc decodes that code page with. */
    private static final Map<String, Object[]> LOCALES = Map.ofEntries(
        Map.entry("latin1_general", new Object[] {0x0409, "Cp1252"}),
        Map.entry("chinese_prc", new Object[] {0x0804, "MS936"}),
        Map.entry("chinese_taiwan_stroke", new Object[] {0x0404, "MS950"}),
        Map.entry("japanese", new Object[] {0x0411, "MS932"}),
        Map.entry("korean_wansung", new Object[] {0x0412, "MS949"}),
        Map.entry("cyrillic_general", new Object[] {0x0419, "Cp1251"}),
        Map.entry("greek", new Object[] {0x0408, "Cp1253"}),
        Map.entry("hebrew", new Object[] {0x040D, "Cp1255"}),
        Map.entry("arabic", new Object[] {0x0401, "Cp1256"}),
        Map.entry("turkish", new Object[] {0x041F, "Cp1254"}),
        Map.entry("thai", new Object[] {0x041E, "MS874"}),
        Map.entry("vietnamese", new Object[] {0x042A, "Cp1258"}),
        Map.entry("polish", new Object[] {0x0415, "Cp1250"}),
        Map.entry("czech", new Object[] {0x0405, "Cp1250"}),
        Map.entry("estonian", new Object[] {0x0425, "Cp1257"}));

    /** SQL collations: sort id and code page (mssql-jdbc's SortOrder table). */
    private static final Map<String, Object[]> SQL_COLLATIONS = Map.of(
        "sql_latin1_general_cp1_ci_as", new Object[] {52, "Cp1252"},
        "sql_latin1_general_cp1_cs_as", new Object[] {51, "Cp1252"},
        "sql_latin1_general_cp1_ci_ai", new Object[] {54, "Cp1252"});

    private Collations() {
    }

    /** A resolved collation: its TDS bytes and the charset of its non-Unicode values. */
    public record Collation(String name, byte[] tds, Charset charset) {
    }

    public static Collation of(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        Object[] sql = SQL_COLLATIONS.get(n);
        if (sql != null) {
            int flags = IGNORE_KANA | IGNORE_WIDTH | (n.contains("_ci_") ? IGNORE_CASE : 0)
                | (n.endsWith("_ai") ? IGNORE_ACCENT : 0);
            return new Collation(name, bytes(0x0409 | flags, (Integer) sql[0]), Charset.forName((String) sql[1]));
        }
        for (Map.Entry<String, Object[]> e : LOCALES.entrySet()) {
            if (n.startsWith(e.getKey() + "_")) {
                String rest = n.substring(e.getKey().length());
                boolean utf8 = rest.contains("_utf8");
                int version = rest.contains("_140_") ? 2 : rest.contains("_100_") ? 1 : 0;
                int flags = (rest.contains("_bin2") ? BINARY2 : rest.contains("_bin") ? BINARY : 0)
                    | (rest.contains("_ci") ? IGNORE_CASE : 0) | (rest.contains("_ai") ? IGNORE_ACCENT : 0)
                    | (rest.contains("_ks") ? 0 : IGNORE_KANA) | (rest.contains("_ws") ? 0 : IGNORE_WIDTH)
                    | (utf8 ? UTF8 : 0);
                if ((flags & (BINARY | BINARY2)) != 0) {
                    flags &= ~(IGNORE_CASE | IGNORE_ACCENT | IGNORE_KANA | IGNORE_WIDTH);
                }
                Charset cs = utf8 ? java.nio.charset.StandardCharsets.UTF_8 : Charset.forName((String) e.getValue()[1]);
                return new Collation(name, bytes((Integer) e.getValue()[0] | flags | (version << 28), 0), cs);
            }
        }
        throw new IllegalArgumentException("a collation the twin does not know: " + name);
    }

    private static byte[] bytes(int info, int sortId) {
        return new byte[] {(byte) info, (byte) (info >>> 8), (byte) (info >>> 16), (byte) (info >>> 24),
            (byte) sortId};
    }
}
