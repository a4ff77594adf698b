package io.dpone.clickhouse;

import io.dpone.connect.Secret;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Loads: a spooled chunk file into a table, staged objects pulled by ClickHouse, and the probe that reads them. One
 * role of {@link ClickHouseOperations} (issue 33: interfaces of at most five methods); a caller that needs only this
 * role takes it.
 */
public interface ChunkLoads {

    /** Inserts one spooled chunk file into a table, stamped with the load's metadata columns. */
    void insertChunk(ChunkInsert insert);

    /** {@code INSERT INTO table SELECT ... FROM s3(...)}: ClickHouse pulls staged objects into a table. */
    void pull(ObjectPull pull);

    /** How many rows ClickHouse reads from staged objects (a probe that it can read them). */
    long countObjectRows(ObjectRead read, Map<String, String> settings);

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
}
