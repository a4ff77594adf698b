package io.dpone.cdc.mssql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The name dpone gives a table's second capture instance: deterministic, within 100 characters, an identifier. */
class CaptureInstanceDdlTest {
    @Test
    void theSuccessorOfAnInstanceIsItsNextGeneration() {
        assertEquals("dbo_orders_v2", CaptureInstanceDdl.nextName("dbo_orders"));
        assertEquals("dbo_orders_v3", CaptureInstanceDdl.nextName("dbo_orders_v2"));
        assertEquals("dbo_orders_v10", CaptureInstanceDdl.nextName("dbo_orders_v9"));
        assertEquals("dbo_orders_vip_v2", CaptureInstanceDdl.nextName("dbo_orders_vip"));
        assertEquals(CaptureInstanceDdl.nextName("sales_x"), CaptureInstanceDdl.nextName("sales_x"), "deterministic");
    }

    @Test
    void aLongNameIsShortenedAtItsBaseToSqlServersLimit() {
        String base = "t".repeat(100);
        String next = CaptureInstanceDdl.nextName(base);
        assertEquals(CaptureInstanceDdl.MAX_NAME, next.length());
        assertEquals("t".repeat(97) + "_v2", next);
        assertEquals("t".repeat(97) + "_v3", CaptureInstanceDdl.nextName(next));
    }

    @Test
    void aNameThatWouldNotBeAnIdentifierIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> CaptureInstanceDdl.nextName("1abc"));
        assertThrows(IllegalArgumentException.class, () -> CaptureInstanceDdl.nextName("dbo];DROP TABLE x--"));
    }
}
