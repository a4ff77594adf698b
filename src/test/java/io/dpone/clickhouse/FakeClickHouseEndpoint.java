package io.dpone.clickhouse;

import io.dpone.connect.Secret;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * An in-memory {@link ClickHouseEndpoint} whose {@link #operations()} keep a catalogue in maps: databases (with their
 * engine), tables (uuid, engine, comment, sort key, columns, parts, rows of TabSeparated chunks, deduplication
 * tokens), named collections, clusters and the settings it knows. It runs no SQL: {@link #execute}, {@link #query} and
 * {@link #insertFile} refuse every statement, so a caller still on the low-level path shows at once.
 * {@code ClickHouseOperationsContract} holds it to what the embedded engine and the HTTP twin do.
 *
 * <p>Every operation is logged ({@link #log()}) as {@code "<operation> <database>.<table>"}, and
 * {@link #beforeEach} sees that line before the operation takes effect (a test may check state then, or throw).
 */
public final class FakeClickHouseEndpoint implements ClickHouseEndpoint {
    private final Map<String, Database> databases = new TreeMap<>();
    private final Set<String> namedCollections = new HashSet<>();
    private final Map<String, List<ClickHouseOperations.ClusterReplica>> clusters = new TreeMap<>();
    private final List<String> grants = new ArrayList<>();
    private final Map<String, String> serverSettings = new TreeMap<>(Map.of("max_thread_pool_size", "10000"));
    private final Set<String> knownSettings = new HashSet<>(Set.of("max_threads"));
    private final List<String> log = new ArrayList<>();
    private final List<ClickHouseOperations.TableSpec> created = new ArrayList<>();
    private final List<ClickHouseOperations.ChunkInsert> inserts = new ArrayList<>();
    private final List<ClickHouseOperations.ObjectPull> pulls = new ArrayList<>();
    private final Ops ops = new Ops();
    private volatile Consumer<String> beforeEach = line -> { };
    private volatile Consumer<String> afterSwap = line -> { };
    private volatile boolean closed;
    private boolean mergeControl = true;

    private static final class Database {
        final String engine;
        final Map<String, Table> tables = new TreeMap<>();

        Database(String engine) {
            this.engine = engine;
        }
    }

    private static final class Table {
        final String uuid = UUID.randomUUID().toString();
        final String engine;
        final String comment;
        final String sortingKey;
        final List<ClickHouseOperations.Column> columns;
        final long window;
        final List<String> parts = new ArrayList<>();
        final Set<String> tokens = new HashSet<>();
        final Set<String> loads = new HashSet<>();
        final Instant metadataModified = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Instant lastActivity = metadataModified;
        long rows;
        boolean rowsKnown = true;
        int blocks;

        Table(String engine, String comment, String sortingKey, List<ClickHouseOperations.Column> columns,
              long window) {
            this.engine = engine;
            this.comment = comment;
            this.sortingKey = sortingKey;
            this.columns = columns;
            this.window = window;
        }
    }

    /** Adds an Atomic database (no-op when it exists). */
    public synchronized FakeClickHouseEndpoint database(String name) {
        databases.putIfAbsent(name, new Database("Atomic"));
        return this;
    }

    /** Adds a database with another engine ({@code Ordinary}, {@code Lazy}, ...). */
    public synchronized FakeClickHouseEndpoint database(String name, String engine) {
        databases.put(name, new Database(engine));
        return this;
    }

    /** Adds (or replaces) a MergeTree table with only a comment: no columns, no sort key, no rows. */
    public synchronized FakeClickHouseEndpoint table(String database, String table, String comment) {
        database(database).databases.get(database).tables.put(table, new Table("MergeTree", comment, "", List.of(), 0));
        return this;
    }

    /**
     * A server whose user lacks the {@code SYSTEM MERGES} grant: stopping or starting merges is refused, so the
     * staging stats are read once at the end ({@link PartwiseTableStats}), which the engine tests cover: the fake
     * holds no row data to compute them from.
     */
    public synchronized FakeClickHouseEndpoint withoutMergeControl() {
        mergeControl = false;
        return this;
    }

    /** Makes {@code system.clusters} list {@code name} with these replicas (listed by shard, then replica). */
    public synchronized FakeClickHouseEndpoint cluster(String name, ClickHouseOperations.ClusterReplica... replicas) {
        clusters.put(name, java.util.Arrays.stream(replicas).sorted(Comparator
            .comparingInt(ClickHouseOperations.ClusterReplica::shard)
            .thenComparingInt(ClickHouseOperations.ClusterReplica::replica)).toList());
        return this;
    }

    /** Adds a line to what {@code SHOW GRANTS} answers ({@code GRANT SELECT ON db.* TO user}). */
    public synchronized FakeClickHouseEndpoint grant(String line) {
        grants.add(line);
        return this;
    }

    /** Makes {@code system.server_settings} list {@code name} with {@code value}. */
    public synchronized FakeClickHouseEndpoint serverSetting(String name, String value) {
        serverSettings.put(name, value);
        return this;
    }

    public synchronized boolean exists(String database, String table) {
        return find(database, table) != null;
    }

    /** The table's comment, or null when there is no such table. */
    public synchronized String comment(String database, String table) {
        Table t = find(database, table);
        return t == null ? null : t.comment;
    }

    /** Every operation so far, in order: {@code "<operation> <database>.<table>"}. */
    public synchronized List<String> log() {
        return List.copyOf(log);
    }

    /** Whether an operation named {@code operation} ran (the first word of its {@link #log()} line). */
    public synchronized boolean ran(String operation) {
        return log.stream().anyMatch(l -> l.equals(operation) || l.startsWith(operation + " "));
    }

    /** The tables created, in order. */
    public synchronized List<ClickHouseOperations.TableSpec> created() {
        return List.copyOf(created);
    }

    /** The chunk inserts, in order. */
    public synchronized List<ClickHouseOperations.ChunkInsert> inserts() {
        return List.copyOf(inserts);
    }

    /** The object-storage pulls, in order. */
    public synchronized List<ClickHouseOperations.ObjectPull> pulls() {
        return List.copyOf(pulls);
    }

    /**
     * Called with an {@code exchange} or {@code rename} line after the swap took effect: a test throws here to play a
     * swap whose answer was lost on the way back.
     */
    public void afterSwap(Consumer<String> hook) {
        afterSwap = hook;
    }

    /** Called with each operation's log line before it takes effect. */
    public void beforeEach(Consumer<String> hook) {
        beforeEach = hook;
    }

    public boolean closed() {
        return closed;
    }

    @Override
    public ClickHouseOperations operations() {
        return ops;
    }

    @Override
    public void execute(String sql) {
        throw new IllegalArgumentException("the fake runs no SQL (use operations()): " + sql);
    }

    @Override
    public List<List<String>> query(String sql) {
        throw new IllegalArgumentException("the fake runs no SQL (use operations()): " + sql);
    }

    @Override
    public void insertFile(InsertFile insert) {
        throw new IllegalArgumentException("the fake runs no SQL (use operations().insertChunk)");
    }

    @Override
    public String kind() {
        return "server";
    }

    @Override
    public void close() {
        closed = true;
    }

    private Table find(String database, String table) {
        Database d = databases.get(database);
        return d == null ? null : d.tables.get(table);
    }

    private Table existing(String database, String table) {
        Table t = find(database, table);
        if (t == null) {
            throw new ClickHouseQueryException("Code: 60. DB::Exception: Table " + database + "." + table
                + " does not exist. (UNKNOWN_TABLE)");
        }
        return t;
    }

    private Database existingDatabase(String database) {
        Database d = databases.get(database);
        if (d == null) {
            throw new ClickHouseQueryException("Code: 81. DB::Exception: Database " + database
                + " does not exist. (UNKNOWN_DATABASE)");
        }
        return d;
    }

    /** As chDB 26.5 prints {@code system.tables.sorting_key}: {@code (a)} for one column, {@code a, b} for more. */
    private static String sortingKey(List<String> orderBy) {
        return orderBy.size() == 1 ? "(" + orderBy.get(0) + ")" : String.join(", ", orderBy);
    }

    private static void check(String identifier) {
        ClickHouseSql.id(identifier); // the same refusal as the real operations
    }

    private void step(String line) {
        beforeEach.accept(line);
        log.add(line);
    }

    private final class Ops implements ClickHouseOperations {
        @Override
        public Optional<String> databaseEngine(String database) {
            synchronized (FakeClickHouseEndpoint.this) {
                step("databaseEngine " + database);
                Database d = databases.get(database);
                return d == null ? Optional.empty() : Optional.of(d.engine);
            }
        }

        @Override
        public void createDatabase(String database) {
            synchronized (FakeClickHouseEndpoint.this) {
                check(database);
                step("createDatabase " + database);
                database(database);
            }
        }

        @Override
        public void dropDatabase(String database) {
            synchronized (FakeClickHouseEndpoint.this) {
                check(database);
                step("dropDatabase " + database);
                databases.remove(database);
            }
        }

        @Override
        public Optional<TableInfo> table(String database, String table) {
            synchronized (FakeClickHouseEndpoint.this) {
                step("table " + database + "." + table);
                Table t = find(database, table);
                return t == null ? Optional.empty() : Optional.of(new TableInfo(t.uuid, t.engine, t.comment,
                    t.sortingKey, t.metadataModified, t.rowsKnown ? t.rows : 0));
            }
        }

        @Override
        public List<Column> columns(String database, String table) {
            synchronized (FakeClickHouseEndpoint.this) {
                step("columns " + database + "." + table);
                Table t = find(database, table);
                return t == null ? List.of() : t.columns;
            }
        }

        @Override
        public List<String> tablesWithPrefix(String database, String prefix) {
            synchronized (FakeClickHouseEndpoint.this) {
                step("tablesWithPrefix " + database);
                Database d = databases.get(database);
                return d == null ? List.of() : d.tables.keySet().stream().filter(n -> n.startsWith(prefix)).toList();
            }
        }

        @Override
        public List<TableActivity> tablesWithPrefixEverywhere(String prefix) {
            synchronized (FakeClickHouseEndpoint.this) {
                step("tablesWithPrefixEverywhere");
                List<TableActivity> all = new ArrayList<>();
                databases.forEach((db, d) -> d.tables.forEach((name, t) -> {
                    if (name.startsWith(prefix)) {
                        all.add(new TableActivity(db, name, t.lastActivity));
                    }
                }));
                all.sort(Comparator.comparing(TableActivity::database).thenComparing(TableActivity::name));
                return all;
            }
        }

        @Override
        public void createTable(TableSpec spec) {
            synchronized (FakeClickHouseEndpoint.this) {
                check(spec.database());
                check(spec.name());
                spec.columns().forEach(c -> check(c.name()));
                spec.orderBy().forEach(FakeClickHouseEndpoint::check);
                step("createTable " + spec.database() + "." + spec.name());
                Database d = existingDatabase(spec.database());
                if (d.tables.containsKey(spec.name())) {
                    throw new ClickHouseQueryException("Code: 57. DB::Exception: Table " + spec.database() + "."
                        + spec.name() + " already exists. (TABLE_ALREADY_EXISTS)");
                }
                created.add(spec);
                d.tables.put(spec.name(), new Table(spec.engine(), spec.comment() == null ? "" : spec.comment(),
                    sortingKey(spec.orderBy()), spec.columns(),
                    Long.parseLong(spec.settings().getOrDefault("non_replicated_deduplication_window", "0"))));
            }
        }

        @Override
        public void dropTable(String database, String table) {
            synchronized (FakeClickHouseEndpoint.this) {
                check(database);
                check(table);
                step("dropTable " + database + "." + table);
                Database d = databases.get(database);
                if (d != null) {
                    d.tables.remove(table);
                }
            }
        }

        @Override
        public void exchange(String database1, String table1, String database2, String table2) {
            synchronized (FakeClickHouseEndpoint.this) {
                step("exchange " + database1 + "." + table1 + " " + database2 + "." + table2);
                Table a = existing(database1, table1);
                Table b = existing(database2, table2);
                databases.get(database1).tables.put(table1, b);
                databases.get(database2).tables.put(table2, a);
                afterSwap.accept("exchange " + database1 + "." + table1 + " " + database2 + "." + table2);
            }
        }

        @Override
        public void rename(String fromDatabase, String from, String toDatabase, String to) {
            synchronized (FakeClickHouseEndpoint.this) {
                check(to);
                step("rename " + fromDatabase + "." + from + " " + toDatabase + "." + to);
                Table t = existing(fromDatabase, from);
                Database target = existingDatabase(toDatabase);
                if (target.tables.containsKey(to)) {
                    throw new ClickHouseQueryException("Code: 57. DB::Exception: Table " + toDatabase + "." + to
                        + " already exists. (TABLE_ALREADY_EXISTS)");
                }
                databases.get(fromDatabase).tables.remove(from);
                target.tables.put(to, t);
                afterSwap.accept("rename " + fromDatabase + "." + from + " " + toDatabase + "." + to);
            }
        }

        @Override
        public void stopMerges(String database, String table) {
            synchronized (FakeClickHouseEndpoint.this) {
                step("stopMerges " + database + "." + table);
                refuseWithoutGrant(); // nothing merges here: the parts stay as written either way
            }
        }

        @Override
        public void startMerges(String database, String table) {
            synchronized (FakeClickHouseEndpoint.this) {
                step("startMerges " + database + "." + table);
                refuseWithoutGrant();
            }
        }

        private void refuseWithoutGrant() {
            if (!mergeControl) {
                throw new ClickHouseQueryException("Code: 497. DB::Exception: dpone: Not enough privileges. To "
                    + "execute this query, it's necessary to have the grant SYSTEM MERGES. (ACCESS_DENIED)");
            }
        }

        @Override
        public List<String> activeParts(String database, String table) {
            synchronized (FakeClickHouseEndpoint.this) {
                step("activeParts " + database + "." + table);
                Table t = find(database, table);
                return t == null ? List.of() : t.parts.stream().sorted().toList();
            }
        }

        @Override
        public long count(String database, String table) {
            synchronized (FakeClickHouseEndpoint.this) {
                step("count " + database + "." + table);
                return rows(existing(database, table));
            }
        }

        @Override
        public StagedLoads stagedLoads(String database, String table) {
            synchronized (FakeClickHouseEndpoint.this) {
                step("stagedLoads " + database + "." + table);
                Table t = existing(database, table);
                return new StagedLoads(rows(t), t.loads.size());
            }
        }

        private long rows(Table t) {
            if (!t.rowsKnown) {
                throw new UnsupportedOperationException("the fake counts the rows of TabSeparated chunks only");
            }
            return t.rows;
        }

        @Override
        public Set<String> changeableSettings(Collection<String> names) {
            synchronized (FakeClickHouseEndpoint.this) {
                step("changeableSettings");
                Set<String> known = new LinkedHashSet<>();
                names.stream().filter(knownSettings::contains).forEach(known::add);
                return known;
            }
        }

        @Override
        public boolean clusterExists(String cluster) {
            synchronized (FakeClickHouseEndpoint.this) {
                step("clusterExists " + cluster);
                return clusters.containsKey(cluster) && !clusters.get(cluster).isEmpty();
            }
        }

        @Override
        public List<ClusterReplica> clusterReplicas(String cluster) {
            synchronized (FakeClickHouseEndpoint.this) {
                step("clusterReplicas " + cluster);
                return clusters.getOrDefault(cluster, List.of());
            }
        }

        @Override
        public Map<String, String> serverSettings(Collection<String> names) {
            synchronized (FakeClickHouseEndpoint.this) {
                step("serverSettings");
                Map<String, String> values = new java.util.LinkedHashMap<>();
                names.stream().filter(serverSettings::containsKey).forEach(n -> values.put(n, serverSettings.get(n)));
                return values;
            }
        }

        @Override
        public boolean namedCollectionExists(String name) {
            synchronized (FakeClickHouseEndpoint.this) {
                step("namedCollectionExists " + name);
                return namedCollections.contains(name);
            }
        }

        @Override
        public void replaceNamedCollection(String name, Secret accessKey, Secret secretKey) {
            synchronized (FakeClickHouseEndpoint.this) {
                check(name);
                step("replaceNamedCollection " + name);
                namedCollections.add(name);
            }
        }

        @Override
        public void dropNamedCollection(String name) {
            synchronized (FakeClickHouseEndpoint.this) {
                check(name);
                step("dropNamedCollection " + name);
                namedCollections.remove(name);
            }
        }

        @Override
        public void insertChunk(ChunkInsert insert) {
            synchronized (FakeClickHouseEndpoint.this) {
                step("insertChunk " + insert.database() + "." + insert.table());
                inserts.add(insert);
                Table t = existing(insert.database(), insert.table());
                if (!Files.isRegularFile(insert.file())) {
                    throw new UncheckedIOException(new java.nio.file.NoSuchFileException("chunk file is missing"));
                }
                String token = insert.deduplicationToken();
                if (token != null && t.window > 0 && t.tokens.contains(token)) {
                    return; // a second delivery of the same block: deduplicated
                }
                long rows = -1;
                if ("TabSeparated".equals(insert.format())) {
                    try (var lines = Files.lines(insert.file())) {
                        rows = lines.count();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
                land(t, rows, insert.stamp());
                if (token != null && t.window > 0) {
                    t.tokens.add(token);
                }
            }
        }

        @Override
        public void pull(ObjectPull pull) {
            synchronized (FakeClickHouseEndpoint.this) {
                step("pull " + pull.database() + "." + pull.table());
                pulls.add(pull);
                land(existing(pull.database(), pull.table()), -1, pull.stamp()); // the objects are not read here
            }
        }

        private void land(Table t, long rows, LoadStamp stamp) {
            if (rows == 0) {
                return; // an empty insert writes no part
            }
            t.blocks++;
            t.parts.add("all_" + t.blocks + "_" + t.blocks + "_0");
            t.loads.add(stamp.loadId() + "#" + t.blocks); // each insert has its own load time
            t.lastActivity = Instant.now().truncatedTo(ChronoUnit.SECONDS);
            if (rows < 0) {
                t.rowsKnown = false;
            } else {
                t.rows += rows;
            }
        }

        @Override
        public long countObjectRows(ObjectRead read, Map<String, String> settings) {
            throw new UnsupportedOperationException("the fake reads no object storage");
        }

        @Override
        public List<String> grants() {
            synchronized (FakeClickHouseEndpoint.this) {
                step("grants");
                return List.copyOf(grants);
            }
        }

        @Override
        public void ping() {
            synchronized (FakeClickHouseEndpoint.this) {
                step("ping");
            }
        }
    }
}
