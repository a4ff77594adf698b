package io.dpone.cdc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RowValuesTest {
    private static final RowValues.Shape SHAPE = RowValues.Shape.of(List.of("order_id", "status", "amount"));

    private static LinkedHashMap<String, Object> reference(Object id, Object status, Object amount) {
        LinkedHashMap<String, Object> m = new LinkedHashMap<>();
        m.put("order_id", id);
        m.put("status", status);
        m.put("amount", amount);
        return m;
    }

    @Test
    void aRowIsTheMapOfItsShapesNamesAndItsValues() {
        RowValues row = SHAPE.row(new Object[] {7, null, new BigDecimal("19.90")});
        LinkedHashMap<String, Object> ref = reference(7, null, new BigDecimal("19.90"));
        assertEquals(ref, row);
        assertEquals(row, ref);
        assertEquals(ref.hashCode(), row.hashCode());
        assertEquals(new ArrayList<>(ref.entrySet()), new ArrayList<>(row.entrySet()));
        assertEquals(List.copyOf(ref.keySet()), List.copyOf(row.keySet()));
        assertEquals(new ArrayList<>(ref.values()), new ArrayList<>(row.values()));
        assertTrue(row.containsKey("status"), "a NULL column is still a column");
        assertNull(row.get("status"));
        assertNull(row.get("missing"));
        assertFalse(row.containsKey("missing"));
        assertEquals(3, row.size());
        List<String> visited = new ArrayList<>();
        row.forEach((k, v) -> visited.add(k + "=" + v));
        assertEquals(List.of("order_id=7", "status=null", "amount=19.90"), visited);
        assertTrue(row.toString().contains("order_id=7"));
        assertTrue(!row.equals(SHAPE.row(new Object[] {7, "paid", new BigDecimal("19.90")})));
    }

    @Test
    void aRowIsReadOnlyAndAnEventTakesItAsItIs() {
        RowValues row = SHAPE.row(new Object[] {1, "new", null});
        assertThrows(UnsupportedOperationException.class, () -> row.put("status", "paid"));
        assertThrows(UnsupportedOperationException.class, () -> row.remove("status"));
        assertThrows(UnsupportedOperationException.class, () -> row.keySet().remove("status"));
        assertThrows(UnsupportedOperationException.class, () -> row.entrySet().iterator().next().setValue(2));
        assertThrows(UnsupportedOperationException.class, row::clear);
        CdcEvent e = new CdcEvent(CdcOperation.insert, "0x10", 0, "dbo", "orders", row, Map.of());
        assertSame(row, e.data(), "no copy per change");
        assertEquals(reference(1, "new", null), e.data());
    }

    @Test
    void shapesRefuseRepeatedNamesAndRowsOfTheWrongWidth() {
        assertThrows(IllegalArgumentException.class, () -> RowValues.Shape.of(List.of("a", "b", "a")));
        assertThrows(IllegalArgumentException.class, () -> SHAPE.row(new Object[] {1, "x"}));
    }

    @Test
    void jsonOfARowIsTheJsonOfTheSameLinkedHashMap() throws Exception {
        ObjectMapper json = new ObjectMapper();
        assertEquals(json.writeValueAsString(reference(3, "paid", new BigDecimal("1.50"))),
            json.writeValueAsString(SHAPE.row(new Object[] {3, "paid", new BigDecimal("1.50")})));
        assertEquals(CdcHashes.canonicalJson(reference(3, "paid", null)),
            CdcHashes.canonicalJson(SHAPE.row(new Object[] {3, "paid", null})));
    }
}
