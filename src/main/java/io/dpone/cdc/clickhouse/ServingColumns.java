package io.dpone.cdc.clickhouse;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.cdc.ServingSql;
import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import io.dpone.source.SourceColumn;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The payload columns of a serving table: a typed log column gets the full refresh's type, {@code Nullable} exactly
 * where the source column is nullable (and, in tombstone mode, for every non-key column: a Change Tracking delete
 * carries only its keys); a JSON-text column stays {@code Nullable(String)}.
 */
final class ServingColumns {
    private ServingColumns() {
    }

    /** Column -> ClickHouse type, in {@code payload} order (unique keys first). */
    static Map<String, String> types(List<String> payload, Map<String, SourceColumn> typed, List<String> keys,
                                     boolean tombstone) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String c : payload) {
            SourceColumn t = typed.get(c);
            if (t == null) {
                out.put(c, "Nullable(String)");
            } else {
                boolean nullable = t.nullable() || (tombstone && !keys.contains(c));
                out.put(c, nullable ? "Nullable(" + t.type().clickHouseType() + ")" : t.type().clickHouseType());
            }
        }
        return out;
    }

    /** The unique keys when none is Nullable (the table reads like a full refresh's), else the key hash. */
    static String orderBy(Map<String, String> types, List<String> keys, String hashColumn) {
        return ServingSql.orderBy(plainKeys(types, keys), keys, hashColumn);
    }

    /** Whether the unique keys themselves identify a row: every one is a payload column and none is Nullable. */
    static boolean plainKeys(Map<String, String> types, List<String> keys) {
        return keys.stream().allMatch(k -> types.containsKey(k) && !types.get(k).startsWith("Nullable("));
    }

    /**
     * A NULL bound for a column that is not nullable would be written as the type's default by ClickHouse
     * ({@code insert_null_as_default}): the rows to publish are counted first, and any such NULL is
     * {@code cdc_materialize.verify_failed} naming the column; nothing is published.
     */
    static void refuseNulls(ClickHouseEndpoint ch, String latest, Map<String, String> types, boolean tombstone,
                            String operationColumn) {
        List<String> plain = types.entrySet().stream().filter(e -> !e.getValue().startsWith("Nullable("))
            .map(Map.Entry::getKey).toList();
        if (plain.isEmpty()) {
            return;
        }
        List<Long> nulls = ServingSql.nullCounts(ch, latest, plain, tombstone ? null : operationColumn);
        for (int i = 0; i < plain.size(); i++) {
            if (nulls.get(i) != 0) {
                throw new DponeException(new Blocker(CdcMaterializer.VERIFY_FAILED, "--cdc-dataset",
                    nulls.get(i) + " row(s) to publish hold NULL in column " + plain.get(i) + ", which is NOT NULL "
                        + "at the source; nothing was published", Map.of("column", plain.get(i))));
            }
        }
    }
}
