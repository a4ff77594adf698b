package io.dpone.testing.mssql.engine;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The system CLR types as the twin stores them, and the functions ({@code CREATE ALIAS} in every database) its
 * translation maps their T-SQL methods to.
 *
 * <p>{@code hierarchyid} is stored as its canonical path text ({@code /}, {@code /1/}, {@code /1/2.5/-3/}), as
 * {@code ToString()} and {@code CAST(.. AS nvarchar)} return it. {@code geography}/{@code geometry} are stored as
 * the SRID (4 bytes, big-endian) followed by the OGC WKB of the instance, little-endian, as {@code STAsBinary()}
 * returns it (a big-endian WKB is rewritten; 2D types 1..7 only). Neither is SQL Server's own serialisation, so a
 * raw select of such a column is refused ({@link ResultWriter}). The WKT reader and WKB writer are hand-written:
 * the twin must not pull a GIS library for POINT/LINESTRING/POLYGON.
 */
public final class ClrTypes {
    /** Function aliases: SQL name, method. */
    static final List<String[]> ALIASES = List.of(
        new String[] {"twin_hierarchyid_parse", "hierarchyidParse"},
        new String[] {"twin_hierarchyid_stored", "hierarchyidStored"},
        new String[] {"twin_geography_from_wkb", "geographyFromWkb"},
        new String[] {"twin_geometry_from_wkb", "geometryFromWkb"},
        new String[] {"twin_geography_from_text", "geographyFromText"},
        new String[] {"twin_geometry_from_text", "geometryFromText"},
        new String[] {"twin_spatial_wkb", "wkb"},
        new String[] {"twin_spatial_wkt", "wkt"},
        new String[] {"twin_spatial_srid", "srid"},
        new String[] {"twin_clr_to_string", "clrToString"});

    private static final Pattern HIERARCHYID = Pattern.compile("/|(/-?[0-9]+(\\.-?[0-9]+)*)+/");

    private ClrTypes() {
    }

    /** A T-SQL error raised inside an H2 function; {@link SqlErrors} reports it as itself. */
    static final class Raised extends RuntimeException {
        final transient SqlServerError error;

        Raised(SqlServerError error) {
            super(error.getMessage());
            this.error = error;
        }
    }

    private static Raised clrError(String type, String detail) {
        return new Raised(new SqlServerError(6522, 2, 16, "A .NET Framework error occurred during execution of "
            + "user-defined routine or aggregate \"" + type + "\": " + detail));
    }

    /** {@code hierarchyid::Parse(text)}: the canonical path, or SQL Server's error 6522 (24001) for bad text. */
    public static String hierarchyidParse(String text) {
        if (text == null) {
            return null;
        }
        if (!HIERARCHYID.matcher(text).matches()) {
            throw clrError("hierarchyid", "Microsoft.SqlServer.Types.HierarchyIdException: 24001: SqlHierarchyId.Parse "
                + "failed because the input string '" + text + "' is not a valid string representation of a "
                + "SqlHierarchyId node.");
        }
        if (text.equals("/")) {
            return text;
        }
        StringBuilder out = new StringBuilder("/");
        for (String label : text.substring(1, text.length() - 1).split("/")) {
            String[] parts = label.split("\\.");
            for (int i = 0; i < parts.length; i++) {
                out.append(i == 0 ? "" : ".").append(new java.math.BigInteger(parts[i]));
            }
            out.append('/');
        }
        return out.toString();
    }

    /**
     * The CHECK of a stored hierarchyid: a string assigned to the column must be a canonical path (SQL Server
     * would also convert {@code /01/}; the twin, which stores the text, refuses it rather than keep two spellings).
     */
    public static Boolean hierarchyidStored(String text) {
        if (text != null && !text.equals(hierarchyidParse(text))) {
            throw new Raised(new SqlServerError(50000, 1, 16, "mssql-twin: the hierarchyid text '" + text + "' is "
                + "not canonical; the twin stores canonical paths only (write hierarchyid::Parse('..') or e.g. '/1/2/')"));
        }
        return Boolean.TRUE;
    }

    public static byte[] geographyFromWkb(byte[] wkb, Integer srid) {
        return stored(wkb, srid, "geography");
    }

    public static byte[] geometryFromWkb(byte[] wkb, Integer srid) {
        return stored(wkb, srid, "geometry");
    }

    public static byte[] geographyFromText(String wkt, Integer srid) {
        return wkt == null ? null : stored(Wkt.read(wkt, "geography"), srid, "geography");
    }

    public static byte[] geometryFromText(String wkt, Integer srid) {
        return wkt == null ? null : stored(Wkt.read(wkt, "geometry"), srid, "geometry");
    }

    private static byte[] stored(byte[] wkb, Integer srid, String type) {
        if (wkb == null || srid == null) {
            return null;
        }
        byte[] normal = Wkb.normalise(wkb, type);
        return ByteBuffer.allocate(4 + normal.length).putInt(srid).put(normal).array();
    }

    /** {@code STAsBinary()} / {@code AsBinaryZM()} (the same bytes for the 2D instances the twin holds). */
    public static byte[] wkb(byte[] stored) {
        return stored == null ? null : java.util.Arrays.copyOfRange(stored, 4, stored.length);
    }

    /** {@code STSrid}. */
    public static Integer srid(byte[] stored) {
        return stored == null ? null : ByteBuffer.wrap(stored).getInt();
    }

    /** {@code STAsText()}. */
    public static String wkt(byte[] stored) {
        return stored == null ? null : Wkt.write(wkb(stored));
    }

    /**
     * {@code ToString()}: a hierarchyid's path, a spatial instance's WKT. H2 hands both over as bytes (a path as its
     * UTF-8 text, which starts with {@code /}; a stored instance starts with its SRID's high byte, 0 for every SRID
     * SQL Server knows).
     */
    public static String clrToString(byte[] value) {
        if (value == null) {
            return null;
        }
        return value.length > 0 && value[0] == '/' ? new String(value, java.nio.charset.StandardCharsets.UTF_8)
            : wkt(value);
    }

    /** OGC WKB (2D): validated and rewritten little-endian. */
    static final class Wkb {
        private Wkb() {
        }

        static byte[] normalise(byte[] wkb, String type) {
            ByteBuffer in = ByteBuffer.wrap(wkb);
            ByteBuffer out = ByteBuffer.allocate(wkb.length).order(ByteOrder.LITTLE_ENDIAN);
            try {
                geometry(in, out, type);
            } catch (RuntimeException e) {
                if (e instanceof Raised r) {
                    throw r;
                }
                throw invalid(type);
            }
            if (in.hasRemaining()) {
                throw invalid(type);
            }
            return out.array();
        }

        private static Raised invalid(String type) {
            return clrError(type, "System.FormatException: 24210: The well-known binary (WKB) input is not valid.");
        }

        private static void geometry(ByteBuffer in, ByteBuffer out, String type) {
            int order = in.get();
            if (order != 0 && order != 1) {
                throw invalid(type);
            }
            in.order(order == 1 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
            int kind = in.getInt();
            out.put((byte) 1).putInt(kind);
            switch (kind) {
                case 1 -> points(in, out, 1);
                case 2 -> points(in, out, count(in, out));
                case 3 -> {
                    int rings = count(in, out);
                    for (int r = 0; r < rings; r++) {
                        points(in, out, count(in, out));
                    }
                }
                case 4, 5, 6, 7 -> {
                    int n = count(in, out);
                    for (int g = 0; g < n; g++) {
                        geometry(in, out, type);
                    }
                }
                default -> throw clrError(type, "System.FormatException: 24210: the twin reads 2D WKB types 1..7 "
                    + "only (Z, M and curve types are not emulated).");
            }
        }

        private static int count(ByteBuffer in, ByteBuffer out) {
            int n = in.getInt();
            if (n < 0 || n > in.remaining()) {
                throw new IllegalArgumentException("count");
            }
            out.putInt(n);
            return n;
        }

        private static void points(ByteBuffer in, ByteBuffer out, int n) {
            for (int i = 0; i < 2 * n; i++) {
                out.putLong(in.getLong()); // the double's bits, unchanged
            }
        }
    }

    /** WKT: POINT, LINESTRING and POLYGON read (to WKB), and written back from the WKB the twin stores. */
    static final class Wkt {
        private Wkt() {
        }

        static byte[] read(String wkt, String type) {
            String t = wkt.trim();
            int open = t.indexOf('(');
            if (open < 0 || !t.endsWith(")")) {
                throw invalid(type, wkt);
            }
            String tag = t.substring(0, open).trim().toUpperCase(Locale.ROOT);
            String body = t.substring(open + 1, t.length() - 1).trim();
            ByteBuffer out = ByteBuffer.allocate(9 + 16 * (body.length() + 1)).order(ByteOrder.LITTLE_ENDIAN);
            try {
                switch (tag) {
                    case "POINT" -> {
                        out.put((byte) 1).putInt(1);
                        List<double[]> p = coordinates(body);
                        if (p.size() != 1) {
                            throw invalid(type, wkt);
                        }
                        out.putDouble(p.get(0)[0]).putDouble(p.get(0)[1]);
                    }
                    case "LINESTRING" -> {
                        out.put((byte) 1).putInt(2);
                        put(out, coordinates(body));
                    }
                    case "POLYGON" -> {
                        List<String> rings = rings(body);
                        out.put((byte) 1).putInt(3).putInt(rings.size());
                        for (String r : rings) {
                            put(out, coordinates(r));
                        }
                    }
                    default -> throw clrError(type, "System.FormatException: 24114: the twin reads POINT, LINESTRING "
                        + "and POLYGON text only.");
                }
            } catch (NumberFormatException e) {
                throw invalid(type, wkt);
            }
            byte[] b = new byte[out.position()];
            out.flip().get(b);
            return b;
        }

        private static Raised invalid(String type, String wkt) {
            return clrError(type, "System.FormatException: 24141: A number is expected at position 1 of the input. "
                + "The input has " + wkt.length() + " characters.");
        }

        private static void put(ByteBuffer out, List<double[]> points) {
            out.putInt(points.size());
            for (double[] p : points) {
                out.putDouble(p[0]).putDouble(p[1]);
            }
        }

        private static List<double[]> coordinates(String body) {
            List<double[]> out = new ArrayList<>();
            for (String pair : body.split(",")) {
                String[] xy = pair.trim().split("\\s+");
                if (xy.length != 2) {
                    throw new NumberFormatException(pair);
                }
                out.add(new double[] {Double.parseDouble(xy[0]), Double.parseDouble(xy[1])});
            }
            return out;
        }

        private static List<String> rings(String body) {
            List<String> out = new ArrayList<>();
            int i = 0;
            while (i < body.length()) {
                int open = body.indexOf('(', i);
                if (open < 0) {
                    break;
                }
                int close = body.indexOf(')', open);
                if (close < 0) {
                    throw new NumberFormatException(body);
                }
                out.add(body.substring(open + 1, close));
                i = close + 1;
            }
            return out;
        }

        static String write(byte[] wkb) {
            ByteBuffer in = ByteBuffer.wrap(wkb).order(ByteOrder.LITTLE_ENDIAN);
            StringBuilder s = new StringBuilder();
            geometry(in, s);
            return s.toString();
        }

        private static void geometry(ByteBuffer in, StringBuilder s) {
            in.get();
            int kind = in.getInt();
            switch (kind) {
                case 1 -> s.append("POINT (").append(point(in)).append(')');
                case 2 -> s.append("LINESTRING ").append(line(in));
                case 3 -> {
                    s.append("POLYGON (");
                    int rings = in.getInt();
                    for (int r = 0; r < rings; r++) {
                        s.append(r == 0 ? "" : ", ").append(line(in));
                    }
                    s.append(')');
                }
                default -> throw new IllegalStateException("the twin writes POINT, LINESTRING and POLYGON text only");
            }
        }

        private static String line(ByteBuffer in) {
            int n = in.getInt();
            StringBuilder s = new StringBuilder("(");
            for (int i = 0; i < n; i++) {
                s.append(i == 0 ? "" : ", ").append(point(in));
            }
            return s.append(')').toString();
        }

        /** SQL Server writes coordinates without a trailing {@code .0}: {@code POINT (1 2)}. */
        private static String point(ByteBuffer in) {
            return number(in.getDouble()) + " " + number(in.getDouble());
        }

        private static String number(double d) {
            return d == Math.rint(d) && Math.abs(d) < 1e15 ? String.valueOf((long) d)
                : java.math.BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
        }
    }
}
