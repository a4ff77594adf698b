package io.dpone.testing.twin;

import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.chdb.ChdbConnection;
import io.dpone.clickhouse.chdb.ChdbException;
import java.io.InputStream;
import java.util.Optional;

/**
 * The statements of a member twin that replication changes, as ClickHouse's {@code ReplicatedMergeTree} behaves at
 * the level a client observes it (everything else goes to the engine unchanged):
 * <ul>
 *   <li>{@code CREATE TABLE ... ENGINE = Replicated*MergeTree[(path, replica, ...)]}, directly or from the DDL queue:
 *       the table is created on the engine with the non-replicated engine (and a local deduplication window, so a
 *       block applied twice is applied once), then registered as a replica under its replication path (the server
 *       default {@code /clickhouse/tables/{uuid}/{shard}}, replica {@code {replica}}: this twin's
 *       {@code --ddl-host});</li>
 *   <li>a data insert into a replicated table: {@link TwinReplicatedInsert} (deduplicated in Keeper, logged);</li>
 *   <li>{@code SYSTEM SYNC REPLICA t}: waits, up to {@code receive_timeout} seconds, until this replica applied every
 *       log entry that was there when it was asked;</li>
 *   <li>{@code DROP TABLE} of a replicated table: dropped, and its replica removed from Keeper (the last replica
 *       removes the table's path), at once as with {@code SYNC};</li>
 *   <li>reads of {@code system.tables} and {@code system.replicas}: {@link TwinReplicaReads};</li>
 *   <li>an insert into a replicated table whose rows do not travel in the request body ({@code INSERT ... VALUES},
 *       {@code INSERT ... SELECT}) is refused ({@code NOT_IMPLEMENTED}): the twin replicates blocks it can replay.</li>
 * </ul>
 * A twin that is not a cluster member ({@link #none}) passes every statement through.
 */
final class TwinReplication {
    static final String DEFAULT_PATH = "/clickhouse/tables/{uuid}/{shard}";
    static final int DEDUPLICATION_WINDOW = 1000;

    private final TwinEngine engine;
    private final TwinCatalog catalog;
    private final TwinReplicatedTables tables;
    private final TwinReplicaLog log;
    private final String replica;
    private final String shard;
    private final String url;
    private final TwinReplicaReads reads;
    private final Object lock = new Object();

    TwinReplication(TwinEngine engine, TwinReplicatedTables tables, TwinReplicaLog log, String replica, String shard,
                    String url) {
        this.engine = engine;
        this.catalog = new TwinCatalog(engine);
        this.tables = tables;
        this.log = log;
        this.replica = replica;
        this.shard = shard;
        this.url = url;
        this.reads = tables == null ? null : new TwinReplicaReads(engine, catalog, tables, log);
    }

    /** No replication: every statement goes to the engine. */
    static TwinReplication none(TwinEngine engine) {
        return new TwinReplication(engine, null, null, null, null, null);
    }

    ChdbConnection.Result run(TwinRequest request, String sql, String format) throws InterruptedException {
        if (tables == null) {
            return engine.run(request, sql, format);
        }
        try {
            var create = TwinReplicationSql.replicatedCreate(sql, request.database());
            if (create.isPresent()) {
                return create(request, create.get(), format);
            }
            var drop = TwinReplicationSql.dropTarget(sql, request.database());
            Optional<TwinReplicatedTables.Replica> dropped = drop.isPresent() ? replicaOf(drop.get()) : Optional.empty();
            if (dropped.isPresent()) {
                synchronized (lock) {
                    ChdbConnection.Result result = engine.run(request, sql, format);
                    forget(dropped.get());
                    return result;
                }
            }
            var sync = TwinReplicationSql.syncTarget(sql, request.database());
            if (sync.isPresent()) {
                return sync(request, sync.get());
            }
            var insert = TwinReplicationSql.insertTarget(sql, request.database());
            if (insert.isPresent() && replicaOf(insert.get()).isPresent()) {
                throw new ChdbException("Code: 48. DB::Exception: the twin replicates only inserts whose rows travel in"
                    + " the request body. (NOT_IMPLEMENTED)");
            }
            return reads.run(request, sql, format);
        } catch (ChdbException | InterruptedException e) {
            throw e;
        } catch (Exception e) {
            throw keeperFailure(e);
        }
    }

    /** A data insert: replicated when its table is, else the engine's. */
    ChdbConnection.Result insert(TwinRequest request, String statement, InputStream body)
            throws java.io.IOException, InterruptedException {
        if (tables == null) {
            return engine.insert(request, statement, body);
        }
        try {
            var target = TwinReplicationSql.insertTarget(statement, request.database());
            Optional<TwinReplicatedTables.Replica> r = target.isPresent() ? replicaOf(target.get()) : Optional.empty();
            if (r.isEmpty()) {
                return engine.insert(request, statement, body);
            }
            return TwinReplicatedInsert.insert(this, request, statement, target.get(), r.get(), body);
        } catch (ChdbException | InterruptedException | java.io.IOException e) {
            throw e;
        } catch (Exception e) {
            throw keeperFailure(e);
        }
    }

    private ChdbConnection.Result create(TwinRequest request, TwinReplicationSql.ReplicatedCreate c, String format)
            throws Exception {
        String db = c.name().database();
        String table = c.name().table();
        if (c.ifNotExists() && catalog.uuidOf(db, table).isPresent()) {
            return engine.run(request, c.localSql(), format);
        }
        synchronized (lock) {
            ChdbConnection.Result result = engine.run(request, c.localSql(), format);
            String uuid = catalog.uuidOf(db, table).orElseThrow(() -> new ChdbException(
                "Code: 60. DB::Exception: the created table is not in system.tables. (UNKNOWN_TABLE)"));
            engine.run(TwinCatalog.plain(), "ALTER TABLE " + ClickHouseSql.table(db, table)
                + " MODIFY SETTING non_replicated_deduplication_window = " + DEDUPLICATION_WINDOW, "TabSeparated");
            String path = macros(c.path() != null ? c.path() : DEFAULT_PATH, uuid, db, table);
            String name = macros(c.replica() != null ? c.replica() : "{replica}", uuid, db, table);
            log.register(path, name, url);
            tables.add(new TwinReplicatedTables.Replica(uuid, c.engine(), path, name));
            return result;
        }
    }

    private ChdbConnection.Result sync(TwinRequest request, TwinReplicationSql.Name n) throws Exception {
        String display = n.database() + "." + n.table();
        String uuid = catalog.uuidOf(n.database(), n.table()).orElseThrow(() -> new ChdbException(
            "Code: 60. DB::Exception: Table " + display + " does not exist. (UNKNOWN_TABLE)"));
        TwinReplicatedTables.Replica r = tables.get(uuid).orElseThrow(() -> new ChdbException(
            "Code: 36. DB::Exception: Table " + display + " is not replicated. (BAD_ARGUMENTS)"));
        long head = log.head(r.zkPath());
        double seconds = Double.parseDouble(request.settings().getOrDefault("receive_timeout", "300"));
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        long pointer;
        while ((pointer = log.pointer(r.zkPath(), r.name())) < head) {
            if (pointer < 0) {
                throw new ChdbException("Code: 60. DB::Exception: Table " + display + " was dropped. (UNKNOWN_TABLE)");
            }
            if (System.nanoTime() > deadline) {
                throw new ChdbException("Code: 159. DB::Exception: SYNC REPLICA " + display + ": command timed out. "
                    + "See the 'receive_timeout' setting. (TIMEOUT_EXCEEDED)");
            }
            Thread.sleep(50); // the replica's queue, polled as the server's wait for it to empty
        }
        return new ChdbConnection.Result(new byte[0], 0, 0, 0, 0, 0);
    }

    /** The replicated table {@code n} names on this twin, if it is one. */
    private Optional<TwinReplicatedTables.Replica> replicaOf(TwinReplicationSql.Name n) throws InterruptedException {
        return catalog.uuidOf(n.database(), n.table()).flatMap(tables::get);
    }

    /** Removes a dropped table's replica from Keeper and from this twin's registry. */
    void forget(TwinReplicatedTables.Replica r) throws Exception {
        log.removeReplica(r.zkPath(), r.name());
        tables.remove(r.uuid());
    }

    private String macros(String text, String uuid, String database, String table) {
        return text.replace("{uuid}", uuid).replace("{shard}", shard).replace("{replica}", replica)
            .replace("{database}", database).replace("{table}", table);
    }

    private static ChdbException keeperFailure(Exception e) {
        return new ChdbException("Code: 999. DB::Exception: the twin's replication failed: " + e
            + ". (KEEPER_EXCEPTION)");
    }

    TwinEngine engine() {
        return engine;
    }

    TwinCatalog catalog() {
        return catalog;
    }

    TwinReplicatedTables tables() {
        return tables;
    }

    TwinReplicaLog log() {
        return log;
    }

    String url() {
        return url;
    }

    /** Held while a block is applied or committed and while a replicated table is created or dropped. */
    Object lock() {
        return lock;
    }
}
