package io.dpone.cdc.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.cdc.CdcBlockers;
import io.dpone.error.DponeException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A multi-table offset's per-table state with and without a table's recorded capture instance. */
class LaneStatesTest {
    @Test
    void aRecordedCaptureInstanceRoundTripsAndAnOlderStateWithoutItStillReads() {
        Map<String, LaneStates.Entry> states = new LinkedHashMap<>();
        states.put("dbo.orders", new LaneStates.Entry("lane-o", null, "dbo_orders_v2"));
        states.put("dbo.customers", new LaneStates.Entry("lane-c", "0x0000002a000001010001"));
        String json = LaneStates.json(states);
        assertEquals(1, json.split("capture_instance", -1).length - 1, json);
        assertTrue(json.contains("\"capture_instance\":\"dbo_orders_v2\""), json);
        assertEquals(states, LaneStates.parse(json));

        Map<String, LaneStates.Entry> older = LaneStates.parse("{\"tables\":{\"dbo.orders\":{\"lane\":\"lane-o\"}}}");
        assertNull(older.get("dbo.orders").captureInstance(), "no field: the table's configured instance");
    }

    @Test
    void aCaptureInstanceThatIsNotAnIdentifierIsAnInvalidCheckpoint() {
        for (String bad : new String[] {"\"x]; DROP TABLE y\"", "42", "null"}) {
            DponeException e = assertThrows(DponeException.class, () -> LaneStates.parse(
                "{\"tables\":{\"dbo.orders\":{\"lane\":\"l\",\"capture_instance\":" + bad + "}}}"), bad);
            assertEquals(CdcBlockers.CHECKPOINT_INVALID, e.blockers().get(0).code());
            assertEquals("offset.resume", e.blockers().get(0).subject());
        }
    }
}
