package io.dpone.testing.mssql.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** The twin's hand-written hierarchyid path parser and WKB/WKT code, below the wire. */
class ClrTypesTest {
    private static ByteBuffer le(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Test
    void hierarchyidPathsAreCanonicalised() {
        assertEquals("/", ClrTypes.hierarchyidParse("/"));
        assertEquals("/1/2/", ClrTypes.hierarchyidParse("/1/2/"));
        assertEquals("/1/-3.0.7/", ClrTypes.hierarchyidParse("/001/-3.00.7/"));
        assertEquals("/123456789012345/", ClrTypes.hierarchyidParse("/123456789012345/"));
        assertNull(ClrTypes.hierarchyidParse(null));
        for (String bad : new String[] {"", "1/", "/1", "//", "/a/", "/1..2/", "/1./", " /1/"}) {
            ClrTypes.Raised e = assertThrows(ClrTypes.Raised.class, () -> ClrTypes.hierarchyidParse(bad), bad);
            assertEquals(6522, e.error.number());
            assertTrue(e.getMessage().contains("24001"));
        }
        assertEquals(Boolean.TRUE, ClrTypes.hierarchyidStored("/1/"));
        assertEquals(Boolean.TRUE, ClrTypes.hierarchyidStored(null));
        assertEquals(50000, assertThrows(ClrTypes.Raised.class, () -> ClrTypes.hierarchyidStored("/01/")).error.number());
    }

    @Test
    void wkbIsStoredWithItsSridAndComesBackLittleEndian() {
        byte[] multi = le(9 + 2 * 21).put((byte) 1).putInt(4).putInt(2)
            .put((byte) 1).putInt(1).putDouble(1).putDouble(2)
            .put((byte) 1).putInt(1).putDouble(-0.0).putDouble(Double.MAX_VALUE).array();
        byte[] stored = ClrTypes.geometryFromWkb(multi, 0);
        assertArrayEquals(multi, ClrTypes.wkb(stored), "a multipoint, -0.0 and MAX_VALUE kept bit for bit");
        assertEquals(0, ClrTypes.srid(stored));
        ByteBuffer be = ByteBuffer.allocate(9 + 32).order(ByteOrder.BIG_ENDIAN).put((byte) 0).putInt(2).putInt(2)
            .putDouble(1).putDouble(2).putDouble(3).putDouble(4);
        byte[] le = le(9 + 32).put((byte) 1).putInt(2).putInt(2).putDouble(1).putDouble(2).putDouble(3).putDouble(4)
            .array();
        assertArrayEquals(le, ClrTypes.wkb(ClrTypes.geographyFromWkb(be.array(), 4326)));
        assertEquals(4326, ClrTypes.srid(ClrTypes.geographyFromWkb(be.array(), 4326)));
        assertNull(ClrTypes.geographyFromWkb(null, 4326));
        assertNull(ClrTypes.wkb(null));
        assertNull(ClrTypes.srid(null));
        byte[] pointZ = le(29).put((byte) 1).putInt(1001).putDouble(1).putDouble(2).putDouble(3).array();
        assertEquals(6522, assertThrows(ClrTypes.Raised.class, () -> ClrTypes.geometryFromWkb(pointZ, 0)).error.number());
        byte[] trailing = le(22).put((byte) 1).putInt(1).putDouble(1).putDouble(2).put((byte) 9).array();
        assertThrows(ClrTypes.Raised.class, () -> ClrTypes.geometryFromWkb(trailing, 0));
        byte[] hugeCount = le(9).put((byte) 1).putInt(2).putInt(Integer.MAX_VALUE).array();
        assertThrows(ClrTypes.Raised.class, () -> ClrTypes.geometryFromWkb(hugeCount, 0));
    }

    @Test
    void wktReadsAndWritesPointLineAndPolygon() {
        byte[] polygon = ClrTypes.geometryFromText("POLYGON ((0 0, 10 0, 10 10, 0 0), (1 1, 2 1, 2 2, 1 1))", 0);
        assertEquals("POLYGON ((0 0, 10 0, 10 10, 0 0), (1 1, 2 1, 2 2, 1 1))", ClrTypes.wkt(polygon));
        assertEquals("POINT (-122.349 47.651)", ClrTypes.wkt(ClrTypes.geographyFromText("point(-122.349 47.651)", 4326)));
        assertEquals("LINESTRING (1.5 2, 3 4)", ClrTypes.clrToString(ClrTypes.geometryFromText(" LINESTRING(1.5 2,3 4) ",
            0)));
        assertEquals("/1/", ClrTypes.clrToString("/1/".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        assertEquals(6522, assertThrows(ClrTypes.Raised.class, () -> ClrTypes.geometryFromText("POINT(1)", 0)).error
            .number());
        assertThrows(ClrTypes.Raised.class, () -> ClrTypes.geometryFromText("CIRCULARSTRING(0 0, 1 1, 2 0)", 0));
        assertNull(ClrTypes.geographyFromText(null, 4326));
    }
}
