package io.dpone.clickhouse;

import java.util.List;

/** The four lineage columns every dpone target carries. */
public final class MetadataColumns {
    public static final String RUN_ID = "__dpone__run_id";
    public static final String LOAD_ID = "__dpone__load_id";
    public static final String LOADED_AT = "__dpone__loaded_at";
    public static final String EXTRACTED_AT = "__dpone__extracted_at";
    public static final List<String> NAMES = List.of(RUN_ID, LOAD_ID, LOADED_AT, EXTRACTED_AT);

    private MetadataColumns() {
    }

    private static final List<String> TYPES = List.of("String", "String", "DateTime64(3, 'UTC')",
        "DateTime64(3, 'UTC')");

    /** Their ClickHouse types, in the order of {@link #NAMES}. */
    public static List<String> types() {
        return TYPES;
    }

    /** Their names and types, as a table's last columns. */
    public static List<ClickHouseOperations.Column> columns() {
        List<ClickHouseOperations.Column> columns = new java.util.ArrayList<>();
        for (int i = 0; i < NAMES.size(); i++) {
            columns.add(new ClickHouseOperations.Column(NAMES.get(i), TYPES.get(i)));
        }
        return columns;
    }

    /** Column definitions for CREATE TABLE. */
    public static String ddl() {
        StringBuilder ddl = new StringBuilder();
        for (int i = 0; i < NAMES.size(); i++) {
            ddl.append(i == 0 ? "" : ", ").append(ClickHouseSql.id(NAMES.get(i))).append(' ').append(TYPES.get(i));
        }
        return ddl.toString();
    }

    /** The SELECT expressions that fill them for one load. */
    public static String values(String runId, String loadId, java.time.Instant extractedAt) {
        return ClickHouseSql.literal(runId) + ", " + ClickHouseSql.literal(loadId) + ", now64(3, 'UTC'), "
            + "toDateTime64(" + ClickHouseSql.literal(extractedAt.toString().replace("T", " ").replace("Z", ""))
            + ", 3, 'UTC')";
    }
}
