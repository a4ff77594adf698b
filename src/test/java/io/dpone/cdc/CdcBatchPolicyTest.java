package io.dpone.cdc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dpone.error.Blocker;
import io.dpone.source.SourceColumn;
import io.dpone.source.types.DecimalType;
import io.dpone.source.types.IntegerType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The typed-value check of a batch: the first value that does not fit its column, wherever the batch is cut. */
class CdcBatchPolicyTest {
    private static final List<SourceColumn> COLUMNS = List.of(
        new SourceColumn("order_id", "int", false, new IntegerType(32, false)),
        new SourceColumn("amount", "decimal(10,2)", true, new DecimalType(10, 2)));

    private static List<Blocker> check(int n, Set<Integer> misfits) {
        List<CdcEvent> changes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("order_id", i);
            data.put("amount", new BigDecimal(misfits.contains(i) ? "1.005" : "19.90"));
            changes.add(new CdcEvent(CdcOperation.insert, "0x" + Integer.toHexString(0x100 + i), 0, "dbo", "orders",
                data, Map.of("backend", "mssql_cdc")));
        }
        CdcBatch batch = new CdcBatch(null, new CdcOffset("mssql_cdc", "0x" + Integer.toHexString(0x100 + n), true),
            changes, COLUMNS);
        IdempotencyResult r = new EventIdentityIdempotency().check(CdcIdentityTest.STREAM, batch, Optional.empty());
        return CdcBatchPolicy.check(CdcIdentityTest.STREAM, batch, Optional.empty(), r);
    }

    @Test
    void theFirstMisfitOfTheBatchIsReportedWhicheverSliceHoldsIt() {
        int n = ParallelSlices.MIN_SLICE * 5;
        List<Blocker> b = check(n, Set.of(n - 2, 3 * ParallelSlices.MIN_SLICE + 5, 3 * ParallelSlices.MIN_SLICE + 9));
        assertEquals(1, b.size(), String.valueOf(b));
        assertEquals(CdcBlockers.VALUE_OUT_OF_RANGE, b.get(0).code());
        assertEquals("changes[" + (3 * ParallelSlices.MIN_SLICE + 5) + "].data.amount", b.get(0).subject());
        assertEquals(List.of(), check(n, Set.of()));
        assertEquals("changes[3].data.amount", check(10, Set.of(3, 7)).get(0).subject());
    }
}
