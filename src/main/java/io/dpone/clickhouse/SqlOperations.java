package io.dpone.clickhouse;

import io.dpone.connect.Secret;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * {@link ClickHouseOperations} on a real ClickHouse: each operation is one statement (or catalogue query) built here,
 * run through the endpoint's low-level {@link ClickHouseEndpoint#execute}/{@link ClickHouseEndpoint#query}.
 * Identifiers are quoted by {@link ClickHouseSql#id}, values by {@link ClickHouseSql#literal}.
 */
public final class SqlOperations implements ClickHouseOperations {
    /** A setting's value as written: a number or a quoted literal. */
    private static final Pattern SETTING_VALUE = Pattern.compile("-?[0-9]+(\\.[0-9]+)?|'(?:[^'\\\\]|\\\\.)*'");

    private final ClickHouseEndpoint ch;

    public SqlOperations(ClickHouseEndpoint ch) {
        this.ch = ch;
    }

    @Override
    public Optional<String> databaseEngine(String database) {
        return first(ch.query("SELECT engine FROM system.databases WHERE name = " + ClickHouseSql.literal(database)));
    }

    @Override
    public void createDatabase(String database) {
        ch.execute("CREATE DATABASE IF NOT EXISTS " + ClickHouseSql.id(database) + " ENGINE = Atomic");
    }

    @Override
    public void dropDatabase(String database) {
        ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(database));
    }

    @Override
    public Optional<TableInfo> table(String database, String table) {
        List<List<String>> rows = ch.query("SELECT toString(uuid), engine, comment, sorting_key, "
            + "toUnixTimestamp(metadata_modification_time), ifNull(total_rows, 0) FROM system.tables"
            + " WHERE database = " + ClickHouseSql.literal(database) + " AND name = " + ClickHouseSql.literal(table));
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        List<String> r = rows.get(0);
        return Optional.of(new TableInfo(r.get(0), r.get(1), nullToEmpty(r.get(2)), nullToEmpty(r.get(3)),
            Instant.ofEpochSecond(Long.parseLong(r.get(4))), Long.parseLong(r.get(5))));
    }

    @Override
    public List<Column> columns(String database, String table) {
        return ch.query("SELECT name, type FROM system.columns WHERE database = " + ClickHouseSql.literal(database)
            + " AND table = " + ClickHouseSql.literal(table) + " ORDER BY position").stream()
            .map(r -> new Column(r.get(0), r.get(1))).toList();
    }

    @Override
    public List<String> tablesWithPrefix(String database, String prefix) {
        return ch.query("SELECT name FROM system.tables WHERE database = " + ClickHouseSql.literal(database)
            + " AND startsWith(name, " + ClickHouseSql.literal(prefix) + ") ORDER BY name")
            .stream().map(r -> r.get(0)).toList();
    }

    @Override
    public List<TableActivity> tablesWithPrefixEverywhere(String prefix) {
        return ch.query("SELECT t.database, t.name, toUnixTimestamp(greatest(t.metadata_modification_time, p.last)) "
            + "FROM system.tables AS t LEFT JOIN (SELECT database, table, max(modification_time) AS last "
            + "FROM system.parts GROUP BY database, table) AS p ON p.database = t.database AND p.table = t.name "
            + "WHERE startsWith(t.name, " + ClickHouseSql.literal(prefix) + ") ORDER BY t.database, t.name").stream()
            .map(r -> new TableActivity(r.get(0), r.get(1), Instant.ofEpochSecond(Long.parseLong(r.get(2)))))
            .toList();
    }

    @Override
    public void createTable(TableSpec spec) {
        if (!ClickHouseSql.IDENTIFIER.matcher(spec.engine()).matches()) {
            throw new IllegalArgumentException("invalid table engine");
        }
        String columns = spec.columns().stream().map(c -> ClickHouseSql.id(c.name()) + " " + type(c.type()))
            .collect(Collectors.joining(", "));
        ch.execute("CREATE TABLE " + ClickHouseSql.table(spec.database(), spec.name()) + " (" + columns
            + ") ENGINE = " + spec.engine() + " ORDER BY "
            + (spec.orderBy().isEmpty() ? "tuple()" : "(" + ClickHouseSql.idList(spec.orderBy()) + ")")
            + settingsClause(spec.settings())
            + (spec.comment() == null ? "" : " COMMENT " + ClickHouseSql.literal(spec.comment())));
    }

    @Override
    public void dropTable(String database, String table) {
        // No SYNC: the embedded engine (chDB 26.5) never returns from DROP ... SYNC; an Atomic database removes the
        // name at once and the data after database_atomic_delay_before_drop_table_sec, which the cleanup audit allows.
        ch.execute("DROP TABLE IF EXISTS " + ClickHouseSql.table(database, table));
    }

    @Override
    public void exchange(String database1, String table1, String database2, String table2) {
        ch.execute("EXCHANGE TABLES " + ClickHouseSql.table(database1, table1) + " AND "
            + ClickHouseSql.table(database2, table2));
    }

    @Override
    public void rename(String fromDatabase, String from, String toDatabase, String to) {
        ch.execute("RENAME TABLE " + ClickHouseSql.table(fromDatabase, from) + " TO "
            + ClickHouseSql.table(toDatabase, to));
    }

    @Override
    public void stopMerges(String database, String table) {
        ch.execute("SYSTEM STOP MERGES " + ClickHouseSql.table(database, table));
    }

    @Override
    public void startMerges(String database, String table) {
        ch.execute("SYSTEM START MERGES " + ClickHouseSql.table(database, table));
    }

    @Override
    public List<String> activeParts(String database, String table) {
        return ch.query("SELECT name FROM system.parts WHERE database = " + ClickHouseSql.literal(database)
            + " AND table = " + ClickHouseSql.literal(table) + " AND active ORDER BY name").stream()
            .map(r -> r.get(0)).toList();
    }

    @Override
    public long count(String database, String table) {
        return Long.parseLong(ch.query("SELECT count() FROM " + ClickHouseSql.table(database, table)).get(0).get(0));
    }

    @Override
    public StagedLoads stagedLoads(String database, String table) {
        List<String> r = ch.query("SELECT count(), uniqExact(" + ClickHouseSql.id(MetadataColumns.LOAD_ID) + ", "
            + ClickHouseSql.id(MetadataColumns.LOADED_AT) + ") FROM " + ClickHouseSql.table(database, table)).get(0);
        return new StagedLoads(Long.parseLong(r.get(0)), Long.parseLong(r.get(1)));
    }

    @Override
    public Set<String> changeableSettings(Collection<String> names) {
        if (names.isEmpty()) {
            return Set.of();
        }
        Set<String> known = new LinkedHashSet<>();
        ch.query("SELECT name FROM system.settings WHERE name IN (" + names.stream().map(ClickHouseSql::literal)
            .collect(Collectors.joining(", ")) + ") AND readonly = 0").forEach(r -> known.add(r.get(0)));
        return known;
    }

    @Override
    public boolean clusterExists(String cluster) {
        return !ch.query("SELECT 1 FROM system.clusters WHERE cluster = " + ClickHouseSql.literal(cluster)).isEmpty();
    }

    @Override
    public List<ClusterReplica> clusterReplicas(String cluster) {
        return ch.query("SELECT host_name, toString(port), toString(shard_num), toString(replica_num),"
            + " toString(internal_replication) FROM system.clusters WHERE cluster = " + ClickHouseSql.literal(cluster)
            + " ORDER BY shard_num, replica_num").stream().map(r -> new ClusterReplica(r.get(0),
                Integer.parseInt(r.get(1)), Integer.parseInt(r.get(2)), Integer.parseInt(r.get(3)),
                "1".equals(r.get(4)) || "true".equalsIgnoreCase(r.get(4)))).toList();
    }

    @Override
    public Map<String, String> serverSettings(Collection<String> names) {
        Map<String, String> values = new LinkedHashMap<>();
        if (names.isEmpty()) {
            return values;
        }
        ch.query("SELECT name, value FROM system.server_settings WHERE name IN (" + names.stream()
            .map(ClickHouseSql::literal).collect(Collectors.joining(", ")) + ")")
            .forEach(r -> values.put(r.get(0), r.get(1)));
        return values;
    }

    @Override
    public boolean namedCollectionExists(String name) {
        return !ch.query("SELECT 1 FROM system.named_collections WHERE name = " + ClickHouseSql.literal(name))
            .isEmpty();
    }

    @Override
    public void replaceNamedCollection(String name, Secret accessKey, Secret secretKey) {
        dropNamedCollection(name);
        ch.execute("CREATE NAMED COLLECTION " + ClickHouseSql.id(name) + " AS access_key_id = "
            + ClickHouseSql.literal(accessKey.reveal()) + ", secret_access_key = "
            + ClickHouseSql.literal(secretKey.reveal()));
    }

    @Override
    public void dropNamedCollection(String name) {
        ch.execute("DROP NAMED COLLECTION IF EXISTS " + ClickHouseSql.id(name));
    }

    @Override
    public void insertChunk(ChunkInsert insert) {
        Map<String, String> settings = new LinkedHashMap<>(insert.settings());
        if (insert.deduplicationToken() != null) {
            settings.put("insert_deduplicate", "1");
            settings.put("insert_deduplication_token", ClickHouseSql.literal(insert.deduplicationToken()));
        }
        ch.insertFile(new ClickHouseEndpoint.InsertFile(ClickHouseSql.table(insert.database(), insert.table()),
            ClickHouseSql.idList(withMetadata(insert.columns())), selectList(insert.selects(), insert.stamp()),
            insert.file(), insert.format(), insert.structure(), settingsList(settings)));
    }

    @Override
    public void pull(ObjectPull pull) {
        ch.execute("INSERT INTO " + ClickHouseSql.table(pull.database(), pull.table()) + " ("
            + ClickHouseSql.idList(withMetadata(pull.columns())) + ") SELECT " + selectList(pull.selects(), pull.stamp())
            + " FROM " + tableFunction(pull.read()) + settingsClause(pull.settings()));
    }

    @Override
    public long countObjectRows(ObjectRead read, Map<String, String> settings) {
        return Long.parseLong(ch.query("SELECT count() FROM " + tableFunction(read) + settingsClause(settings))
            .get(0).get(0));
    }

    @Override
    public List<String> grants() {
        return ch.query("SHOW GRANTS").stream().map(r -> r.get(0)).toList();
    }

    @Override
    public void ping() {
        ch.query("SELECT 1");
    }

    /** The {@code s3(...)} or {@code s3Cluster(...)} call reading {@code read}. */
    static String tableFunction(ObjectRead read) {
        String fn = switch (read.function()) {
            case "s3" -> "s3(";
            case "s3Cluster" -> "s3Cluster(" + ClickHouseSql.literal(read.cluster()) + ", ";
            default -> throw new IllegalArgumentException("unknown object-storage table function");
        };
        if (read.namedCollection() != null) {
            return fn + ClickHouseSql.id(read.namedCollection()) + ", url = " + ClickHouseSql.literal(read.url())
                + ", format = " + ClickHouseSql.literal(read.format()) + ", structure = "
                + ClickHouseSql.literal(read.structure()) + ")";
        }
        return fn + ClickHouseSql.literal(read.url()) + ", " + ClickHouseSql.literal(read.accessKey().reveal()) + ", "
            + ClickHouseSql.literal(read.secretKey().reveal()) + ", " + ClickHouseSql.literal(read.format()) + ", "
            + ClickHouseSql.literal(read.structure()) + ")";
    }

    private static List<String> withMetadata(List<String> columns) {
        List<String> all = new ArrayList<>(columns);
        all.addAll(MetadataColumns.NAMES);
        return all;
    }

    private static String selectList(List<String> selects, LoadStamp stamp) {
        return String.join(", ", selects) + ", "
            + MetadataColumns.values(stamp.runId(), stamp.loadId(), stamp.extractedAt());
    }

    /** {@code " SETTINGS a = 1, b = 2"}, or nothing for no settings. */
    static String settingsClause(Map<String, String> settings) {
        return settings.isEmpty() ? "" : " SETTINGS " + settingsList(settings);
    }

    private static String settingsList(Map<String, String> settings) {
        return settings.entrySet().stream().map(e -> {
            if (!ClickHouseSql.IDENTIFIER.matcher(e.getKey()).matches()
                    || !SETTING_VALUE.matcher(e.getValue()).matches()) {
                throw new IllegalArgumentException("invalid setting " + e.getKey());
            }
            return e.getKey() + " = " + e.getValue();
        }).collect(Collectors.joining(", "));
    }

    /** A column type as a manifest-derived mapping wrote it: no statement separator or comment may hide in it. */
    private static String type(String type) {
        if (type.contains(";") || type.contains("--") || type.contains("/*") || type.contains("`")) {
            throw new IllegalArgumentException("invalid column type");
        }
        return type;
    }

    private static Optional<String> first(List<List<String>> rows) {
        return rows.isEmpty() ? Optional.empty() : Optional.ofNullable(rows.get(0).get(0));
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
