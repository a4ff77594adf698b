package io.dpone.clickhouse.cluster;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A KeeperMap table of fence records ({@code target_key String, record String, version UInt64}, primary key
 * {@code target_key}) on the platform's Keeper, written in {@code keeper_map_strict_mode}: an insert of an existing key
 * fails atomically in Keeper ({@code Node exists}), and an update is one Keeper transaction checked against the node
 * versions it read ({@code Bad version} on a concurrent writer; a stale expected version matches no row). Failures
 * reach the caller as the endpoint raised them; what they mean is the caller's to decide.
 */
public final class KeeperMapFence {
    private static final Pattern KEEPER_PATH = Pattern.compile("^(/[A-Za-z0-9_.-]+)+$");

    private final ClickHouseEndpoint endpoint;
    private final String table;

    private KeeperMapFence(ClickHouseEndpoint endpoint, String table) {
        this.endpoint = endpoint;
        this.table = table;
    }

    /** The fence in {@code database.table} (names only: nothing is created; see {@link #create}). */
    public static KeeperMapFence of(ClickHouseEndpoint endpoint, String database, String table) {
        return new KeeperMapFence(endpoint, ClickHouseSql.table(database, table));
    }

    /**
     * Creates the Atomic database and the KeeperMap table at {@code keeperPath} (below the server's
     * {@code keeper_map_path_prefix}) when missing.
     */
    public void create(String database, String keeperPath) {
        if (keeperPath == null || !KEEPER_PATH.matcher(keeperPath).matches()) {
            throw new IllegalArgumentException("keeper path must be an absolute path of plain segments");
        }
        endpoint.execute("CREATE DATABASE IF NOT EXISTS " + ClickHouseSql.id(database) + " ENGINE = Atomic");
        endpoint.execute("CREATE TABLE IF NOT EXISTS " + table
            + " (target_key String, record String, version UInt64) ENGINE = KeeperMap("
            + ClickHouseSql.literal(keeperPath) + ") PRIMARY KEY target_key");
    }

    /** A stored record and its version. */
    public record Stored(String record, long version) {
    }

    /** The record stored under {@code key}, empty when there is none. */
    public Optional<Stored> read(String key) {
        List<List<String>> rows = endpoint.query("SELECT record, version FROM " + table + " WHERE target_key = "
            + ClickHouseSql.literal(key));
        return rows.isEmpty() ? Optional.empty()
            : Optional.of(new Stored(rows.get(0).get(0), Long.parseLong(rows.get(0).get(1))));
    }

    /** Inserts {@code record} under {@code key} at version 1; fails ({@code Node exists}) when the key exists. */
    public void insert(String key, String record) {
        endpoint.execute(ClickHouseSql.insertRow(table, List.of("target_key", "record", "version"),
            "keeper_map_strict_mode = 1", List.of(ClickHouseSql.literal(key), ClickHouseSql.literal(record), "1")));
    }

    /** Sets {@code record} and version {@code expectedVersion + 1} under {@code key} where the version is expected. */
    public void replace(String key, long expectedVersion, String record) {
        endpoint.execute("ALTER TABLE " + table + " UPDATE record = " + ClickHouseSql.literal(record)
            + ", version = " + (expectedVersion + 1) + " WHERE target_key = " + ClickHouseSql.literal(key)
            + " AND version = " + expectedVersion + " SETTINGS keeper_map_strict_mode = 1");
    }
}
