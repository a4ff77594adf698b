package io.dpone.testing.mssql.engine;

import java.sql.SQLException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * T-SQL to H2 text for the statements H2 runs itself. The rewrites, each outside literals, brackets and comments:
 * {@code CHANGETABLE(CHANGES t, v) AS a} to a derived table over the twin's tracking log ({@link ChangeTracking});
 * {@code @@TRANCOUNT}, {@code @@SPID}, {@code @@VERSION}, {@code @@ROWCOUNT}, {@code DB_NAME()} to the session's
 * values; {@code x.rows} (a reserved word in H2, a column of {@code sys.partitions}) quoted;
 * {@code CURRENT_TIMESTAMP} to local time; {@code COUNT} to int and {@code COUNT_BIG} to H2's COUNT;
 * {@code sys.fn_cdc_get_min_lsn/max_lsn} cast to binary(10); the CLR types' static calls
 * ({@code hierarchyid::Parse/GetRoot}, {@code geography|geometry::STGeomFromWKB/STGeomFromText} and the
 * {@code ST*FromWKB/Text} variants) and instance members ({@code x.ToString()}, {@code x.STAsBinary()},
 * {@code x.AsBinaryZM()}, {@code x.STAsText()}, {@code x.STSrid}) to {@link ClrTypes}' functions;
 * {@code SQL_VARIANT_PROPERTY(col, 'BaseType')} to the column's invisible companion ({@link Variants});
 * {@code @name} parameters to {@code ?}, bound by name in order of occurrence.
 */
final class Translation {
    /**
     * SQL Server's {@code CURRENT_TIMESTAMP} is the local time without an offset ({@code datetime}); H2's has a time
     * zone, which would reach the client as a datetimeoffset and shift every lag computed against stored times.
     */
    private static final Pattern NOW = Pattern.compile("(?i)\\bCURRENT_TIMESTAMP\\b(?!\\s*\\()");
    private static final Pattern COUNT = Pattern.compile("(?i)\\bCOUNT\\s*\\(");
    private static final Pattern COUNT_BIG = Pattern.compile("(?i)\\bCOUNT_BIG\\s*\\(");
    private static final Pattern OVER = Pattern.compile("(?is)\\s*OVER\\b.*");
    private static final Pattern ROWS = Pattern.compile("(?i)(?<=\\.)rows\\b");
    /** The LSN functions return binary(10) on SQL Server; an H2 alias returning byte[] would be varbinary(max). */
    private static final Pattern LSN_FUNCTION = Pattern.compile(
        "(?i)\\bsys\\s*\\.\\s*fn_cdc_get_(?:min|max)_lsn\\s*\\([^()]*\\)");

    private static final Pattern STATIC_CALL = Pattern.compile(
        "(?i)\\b(hierarchyid|geography|geometry)\\s*::\\s*(\\w+)\\s*\\(");
    private static final Pattern GET_ROOT = Pattern.compile("(?i)\\bhierarchyid\\s*::\\s*GetRoot\\s*\\(\\s*\\)");
    private static final Pattern METHOD = Pattern.compile("(?i)(" + SqlText.NAME
        + ")\\s*\\.\\s*(ToString|STAsBinary|AsBinaryZM|STAsText|AsTextZM)\\s*\\(\\s*\\)");
    private static final Pattern SRID = Pattern.compile("(?i)(" + SqlText.NAME + ")\\s*\\.\\s*STSrid\\b(?!\\s*\\()");
    private static final Pattern VARIANT_PROPERTY = Pattern.compile("(?i)\\bSQL_VARIANT_PROPERTY\\s*\\(\\s*("
        + SqlText.NAME + ")\\s*,\\s*N?('[^']*')\\s*\\)");

    record Translated(String sql, List<String> names) {
    }

    private Translation() {
    }

    /** {@code COUNT(..)} is {@code int} on SQL Server ({@code COUNT_BIG} is bigint), BIGINT in H2. */
    static String countAsInt(String sql) {
        String mask = SqlText.mask(sql);
        java.util.regex.Matcher m = COUNT.matcher(mask);
        StringBuilder out = new StringBuilder();
        int last = 0;
        while (m.find()) {
            int depth = 0;
            int end = m.end() - 1;
            do {
                depth += mask.charAt(end) == '(' ? 1 : mask.charAt(end) == ')' ? -1 : 0;
                end++;
            } while (end < mask.length() && depth > 0);
            if (depth != 0 || OVER.matcher(mask.substring(end)).matches()) {
                continue; // unbalanced (H2 reports it) or a window function (CAST would split it from OVER)
            }
            out.append(sql, last, m.start()).append("CAST(").append(sql, m.start(), end).append(" AS INT)");
            last = end;
        }
        return out.append(sql.substring(last)).toString();
    }

    /** The CLR types' calls and members, and SQL_VARIANT_PROPERTY(.., 'BaseType'). */
    static String clr(String sql) {
        String t = SqlText.replace(sql, GET_ROOT, m -> "CAST('/' AS VARCHAR(4000))");
        t = SqlText.replace(t, STATIC_CALL, m -> {
            String type = m.group(1).toLowerCase(java.util.Locale.ROOT);
            String method = m.group(2).toLowerCase(java.util.Locale.ROOT);
            if (type.equals("hierarchyid")) {
                return method.equals("parse") ? "twin_hierarchyid_parse(" : m.group();
            }
            if (method.matches("st(geom|point|line|poly|mpoint|mline|mpoly|geomcoll)fromwkb")) {
                return "twin_" + type + "_from_wkb(";
            }
            if (method.matches("st(geom|point|line|poly|mpoint|mline|mpoly|geomcoll)fromtext")) {
                return "twin_" + type + "_from_text(";
            }
            return m.group(); // not emulated: H2 reports the syntax
        });
        String methods = t;
        t = SqlText.replace(t, METHOD, m -> {
            String target = methods.substring(m.start(1), m.end(1));
            return switch (m.group(2).toLowerCase(java.util.Locale.ROOT)) {
                // nvarchar(4000) is hierarchyid's ToString(); a spatial instance's is nvarchar(max) on SQL Server
                case "tostring" -> "CAST(twin_clr_to_string(" + target + ") AS NVARCHAR(4000))";
                case "stastext", "astextzm" -> "twin_spatial_wkt(" + target + ")";
                default -> "twin_spatial_wkb(" + target + ")";
            };
        });
        String srid = t;
        t = SqlText.replace(t, SRID, m -> "twin_spatial_srid(" + srid.substring(m.start(1), m.end(1)) + ")");
        String variant = t;
        return SqlText.replace(t, VARIANT_PROPERTY, m -> {
            String property = variant.substring(m.start(2) + 1, m.end(2) - 1);
            if (!property.equalsIgnoreCase("BaseType")) {
                return variant.substring(m.start(), m.end()); // not emulated: H2 reports the unknown function
            }
            List<String> parts = Names.parts(variant.substring(m.start(1), m.end(1)));
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < parts.size() - 1; i++) {
                out.append(Names.quote(parts.get(i))).append('.');
            }
            return out.append(Names.quote(TableDdl.variantTypeColumn(parts.get(parts.size() - 1)))).toString();
        });
    }

    static Translated translate(EngineSession s, String sql) throws SqlServerError {
        String t;
        try {
            t = ChangeTracking.rewriteChangeTable(s, sql);
        } catch (SQLException e) {
            throw SqlErrors.of(e, sql);
        }
        t = s.sessionValues(t);
        t = clr(t);
        t = SqlText.replace(t, ROWS, m -> "\"rows\"");
        t = SqlText.replace(t, NOW, m -> "CAST(LOCALTIMESTAMP AS TIMESTAMP(3))");
        String typed = t;
        t = SqlText.replace(t, LSN_FUNCTION, m -> "CAST(" + typed.substring(m.start(), m.end()) + " AS BINARY(10))");
        t = countAsInt(t);
        t = SqlText.replace(t, COUNT_BIG, m -> "COUNT(");
        SqlText.Bound b = SqlText.bindParameters(t);
        return new Translated(b.sql(), b.names());
    }
}
