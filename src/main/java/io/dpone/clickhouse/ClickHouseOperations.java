package io.dpone.clickhouse;

import io.dpone.connect.Secret;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The operations the product asks of a ClickHouse, typed: databases and tables, their lifecycle (create, drop, exchange,
 * rename, merges), catalogue reads, chunk inserts and object-storage pulls. Every endpoint offers them through
 * {@link ClickHouseEndpoint#operations()}; on a real engine (embedded or server) {@link SqlOperations} builds the SQL,
 * the one class outside the stats readers that does, and a test fake implements them over maps instead of parsing SQL.
 * {@code ClickHouseOperationsContract} runs the same checks against the embedded engine, the HTTP twin and the fake.
 *
 * <p>Every name is an identifier the manifest rule accepts ({@link ClickHouseSql#IDENTIFIER}); every value travels
 * as a quoted literal. A statement ClickHouse refuses fails with {@link ClickHouseQueryException}, as on the endpoint.
 */
public interface ClickHouseOperations {

    /** The engine of {@code database} ({@code Atomic}, {@code Ordinary}, ...), empty when it does not exist. */
    Optional<String> databaseEngine(String database);

    /** {@code CREATE DATABASE IF NOT EXISTS database ENGINE = Atomic}. */
    void createDatabase(String database);

    /** {@code DROP DATABASE IF EXISTS database} (no SYNC: the embedded engine never returns from it). */
    void dropDatabase(String database);

    /** What the catalogue says of one table, empty when it does not exist. */
    Optional<TableInfo> table(String database, String table);

    /** The table's columns in their order, as ClickHouse prints their types; empty when the table does not exist. */
    List<Column> columns(String database, String table);

    /** Names of the tables in {@code database} that start with {@code prefix}, sorted. */
    List<String> tablesWithPrefix(String database, String prefix);

    /** Every table, in any database, whose name starts with {@code prefix}, with its last activity. */
    List<TableActivity> tablesWithPrefixEverywhere(String prefix);

    /** {@code CREATE TABLE} as {@code spec} says (fails when the table exists). */
    void createTable(TableSpec spec);

    /** {@code DROP TABLE IF EXISTS} (no SYNC: an Atomic database removes the name at once). */
    void dropTable(String database, String table);

    /** {@code EXCHANGE TABLES}: atomically swaps two tables' names (Atomic databases). */
    void exchange(String database1, String table1, String database2, String table2);

    /** {@code RENAME TABLE}. */
    void rename(String fromDatabase, String from, String toDatabase, String to);

    /** {@code SYSTEM STOP MERGES}: the table's parts stay as written. */
    void stopMerges(String database, String table);

    /** {@code SYSTEM START MERGES}: undoes {@link #stopMerges}. */
    void startMerges(String database, String table);

    /** The names of the table's active parts. */
    List<String> activeParts(String database, String table);

    /** {@code count()} of the table. */
    long count(String database, String table);

    /** The rows of a staging table and the distinct (load id, loaded at) pairs among them: its inserts. */
    StagedLoads stagedLoads(String database, String table);

    /** Which of {@code names} the server knows and lets this user change ({@code system.settings}, readonly = 0). */
    Set<String> changeableSettings(Collection<String> names);

    /** Whether {@code system.clusters} lists {@code cluster}. */
    boolean clusterExists(String cluster);

    /** The replicas {@code system.clusters} lists for {@code cluster}, by shard then replica; empty for none. */
    List<ClusterReplica> clusterReplicas(String cluster);

    /** The values of those of {@code names} that {@code system.server_settings} lists, as the server prints them. */
    Map<String, String> serverSettings(Collection<String> names);

    /** Whether the named collection exists. */
    boolean namedCollectionExists(String name);

    /** Drops and creates the named collection {@code name} holding these S3 keys (the embedded engine's own store). */
    void replaceNamedCollection(String name, Secret accessKey, Secret secretKey);

    /** {@code DROP NAMED COLLECTION IF EXISTS}. */
    void dropNamedCollection(String name);

    /** Inserts one spooled chunk file into a table, stamped with the load's metadata columns. */
    void insertChunk(ChunkInsert insert);

    /** {@code INSERT INTO table SELECT ... FROM s3(...)}: ClickHouse pulls staged objects into a table. */
    void pull(ObjectPull pull);

    /** How many rows ClickHouse reads from staged objects (a probe that it can read them). */
    long countObjectRows(ObjectRead read, Map<String, String> settings);

    /** The lines of {@code SHOW GRANTS} for the connected user ({@code GRANT SELECT, INSERT ON db.* TO user}). */
    List<String> grants();

    /** A round trip that reads nothing ({@code SELECT 1}): the endpoint answers. */
    void ping();

    /**
     * What the catalogue says of a table. {@code sortingKey} as ClickHouse prints it ({@code (a)} for one column on
     * chDB 26.5, {@code a, b} for more; empty for none);
     * {@code metadataModified} to the second; {@code totalRows} as {@code system.tables} counts them (0 when unknown).
     */
    record TableInfo(String uuid, String engine, String comment, String sortingKey, Instant metadataModified,
                     long totalRows) {
    }

    /** One row of {@code system.clusters}: a host, its native port, its shard and replica numbers. */
    record ClusterReplica(String hostName, int port, int shard, int replica, boolean internalReplication) {
    }

    /** A column and its ClickHouse type. */
    record Column(String name, String type) {
    }

    /** A table and when it last changed: its metadata or its newest part. */
    record TableActivity(String database, String name, Instant lastActivity) {
    }

    /** A staging table's rows and its inserts (distinct load id and load time). */
    record StagedLoads(long rows, long inserts) {
    }

    /**
     * A table to create: a MergeTree-family {@code engine} (without arguments), its columns, the sort key (empty:
     * unsorted, {@code ORDER BY tuple()}), table-level settings and the comment.
     */
    record TableSpec(String database, String name, String engine, List<Column> columns, List<String> orderBy,
                     Map<String, String> settings, String comment) {
        public TableSpec {
            columns = List.copyOf(columns);
            orderBy = List.copyOf(orderBy);
            settings = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(settings));
        }
    }

    /** The metadata columns' values for one load ({@link MetadataColumns}): run id, load id, extraction time. */
    record LoadStamp(String runId, String loadId, Instant extractedAt) {
    }

    /**
     * One chunk insert: {@code INSERT INTO table (columns, metadata columns) SELECT selects, stamp FROM <file>}, the
     * file read as {@code format} with {@code structure}. {@code selects} are the format's read expressions (one per
     * column); {@code deduplicationToken}, when not null, makes a second delivery of the chunk add no rows.
     */
    record ChunkInsert(String database, String table, List<String> columns, List<String> selects, LoadStamp stamp,
                       Path file, String format, String structure, Map<String, String> settings,
                       String deduplicationToken) {
        public ChunkInsert {
            columns = List.copyOf(columns);
            selects = List.copyOf(selects);
            settings = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(settings));
        }
    }

    /**
     * Staged objects as ClickHouse reads them: {@code function} {@code s3} or {@code s3Cluster} (then over
     * {@code cluster}), the object's {@code url} (a glob allowed), the credentials as a named collection (no secret in
     * the statement) or, for non-production only, inline keys.
     */
    record ObjectRead(String function, String cluster, String url, String namedCollection, Secret accessKey,
                      Secret secretKey, String format, String structure) {
    }

    /** {@code INSERT INTO table (columns, metadata columns) SELECT selects, stamp FROM <read> SETTINGS settings}. */
    record ObjectPull(String database, String table, List<String> columns, List<String> selects, LoadStamp stamp,
                      ObjectRead read, Map<String, String> settings) {
        public ObjectPull {
            columns = List.copyOf(columns);
            selects = List.copyOf(selects);
            settings = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(settings));
        }
    }

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
