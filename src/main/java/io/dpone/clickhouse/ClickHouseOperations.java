package io.dpone.clickhouse;

import java.util.LinkedHashMap;
import java.util.Map;


/**
 * The operations the product asks of a ClickHouse, typed: databases and tables, their lifecycle (create, drop, exchange,
 * rename, merges), catalogue reads, chunk inserts and object-storage pulls. Every endpoint offers them through
 * {@link ClickHouseEndpoint#operations()}; on a real engine (embedded or server) {@link SqlOperations} builds the SQL,
 * the one class outside the stats readers that does, and a test fake implements them over maps instead of parsing SQL.
 * {@code ClickHouseOperationsContract} runs the same checks against the embedded engine, the HTTP twin and the fake.
 *
 * <p>The operations come in roles of at most five methods each (the DESIGN rule for interfaces): {@link
 * DatabaseOperations}, {@link CatalogueReads}, {@link TableCounts}, {@link TableLifecycle}, {@link MergeControl},
 * {@link ChunkLoads}, {@link ServerFacts}, {@link ClusterCatalogue} and {@link NamedCollections}; this interface
 * only composes them, so a caller that needs one role can take that role alone.
 *
 * <p>Every name is an identifier the manifest rule accepts ({@link ClickHouseSql#IDENTIFIER}); every value travels
 * as a quoted literal. A statement ClickHouse refuses fails with {@link ClickHouseQueryException}, as on the endpoint.
 */
public interface ClickHouseOperations extends DatabaseOperations, CatalogueReads, TableCounts, TableLifecycle,
        MergeControl, ChunkLoads, ServerFacts, ClusterCatalogue, NamedCollections {

    /**
     * A {@code SETTINGS} list as written ({@code a = 1, b = 'x'}) as entries in their order: how a chunk format states
     * the settings its insert needs.
     */
    static Map<String, String> settings(String list) {
        Map<String, String> out = new LinkedHashMap<>();
        if (list == null || list.isBlank()) {
            return out;
        }
        for (String item : list.split(",")) {
            int eq = item.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("not a setting: " + item.strip());
            }
            out.put(item.substring(0, eq).strip(), item.substring(eq + 1).strip());
        }
        return out;
    }
}
