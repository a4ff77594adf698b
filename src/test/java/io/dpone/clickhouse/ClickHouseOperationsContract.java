package io.dpone.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ChunkLoads.ChunkInsert;
import io.dpone.clickhouse.CatalogueReads.Column;
import io.dpone.clickhouse.ChunkLoads.LoadStamp;
import io.dpone.clickhouse.TableCounts.StagedLoads;
import io.dpone.clickhouse.CatalogueReads.TableActivity;
import io.dpone.clickhouse.CatalogueReads.TableInfo;
import io.dpone.clickhouse.TableLifecycle.TableSpec;
import io.dpone.connect.Secret;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@link ClickHouseOperations} must do, observed through the operations themselves, so the same assertions hold
 * for the SQL on the embedded engine ({@code EmbeddedClickHouseOperationsTest}), on a server through client-v2 and the
 * HTTP twin ({@code TwinClickHouseOperationsTest}) and for the in-memory fake ({@code FakeClickHouseOperationsTest}):
 * a fake that passes it is one the processor tests can trust. Each test works in its own database.
 *
 * <p>Every role has its cases: {@link DatabaseOperations}, {@link CatalogueReads}, {@link TableCounts},
 * {@link TableLifecycle}, {@link ServerFacts} and {@link NamedCollections} in full; {@link ClusterCatalogue} on the
 * clusters of {@link #CLUSTERS}, which every implementation is given (the embedded engine's configuration from
 * {@code TestEngines}, the twin's {@code <remote_servers>} from {@link #remoteServers()}, the fake's
 * {@code cluster(...)}); {@link ChunkLoads}' chunk inserts on all three and its object-storage reads ({@code pull},
 * {@code countObjectRows}) from the S3 an implementation that reads object storage is given ({@link #objectStorage()},
 * S3Proxy on loopback): one that does not says so and why ({@link #readsNoObjectStorage()}), and the contract holds it
 * to refusing the read. {@link MergeControl} is
 * held to accepting stop and start, on a missing table too, and to chunks staying one part each while merges are
 * stopped; that a stopped table does not merge is not observable through the operations in a test's time (a merge
 * that did not happen yet looks the same).
 */
public abstract class ClickHouseOperationsContract {
    /**
     * The clusters every implementation under test is configured with, and the replicas {@code system.clusters} lists
     * for each, by shard then replica: one shard of two replicas; and two shards with mixed
     * {@code internal_replication}, the first of two replicas. Nothing listens on their addresses.
     */
    public static final Map<String, List<ClusterCatalogue.ClusterReplica>> CLUSTERS = Map.of(
        io.dpone.testing.TestEngines.PUBLICATION_CLUSTER, List.of(
            new ClusterCatalogue.ClusterReplica("127.0.0.1", 9000, 1, 1, false),
            new ClusterCatalogue.ClusterReplica("127.0.0.2", 9000, 1, 2, false)),
        io.dpone.testing.TestEngines.MIXED_FLAGS_CLUSTER, List.of(
            new ClusterCatalogue.ClusterReplica("127.0.0.1", 9000, 1, 1, true),
            new ClusterCatalogue.ClusterReplica("127.0.0.2", 9000, 1, 2, true),
            new ClusterCatalogue.ClusterReplica("127.0.0.3", 9000, 2, 1, false)));

    /** {@link #CLUSTERS} as the {@code <remote_servers>} element of a ClickHouse server configuration. */
    public static String remoteServers() {
        StringBuilder xml = new StringBuilder("<remote_servers>");
        CLUSTERS.forEach((name, replicas) -> {
            xml.append('<').append(name).append('>');
            int shard = 0;
            for (ClusterCatalogue.ClusterReplica r : replicas) {
                if (r.shard() != shard) {
                    xml.append(shard == 0 ? "" : "</shard>").append("<shard><internal_replication>")
                        .append(r.internalReplication()).append("</internal_replication>");
                    shard = r.shard();
                }
                xml.append("<replica><host>").append(r.hostName()).append("</host><port>").append(r.port())
                    .append("</port></replica>");
            }
            xml.append("</shard></").append(name).append('>');
        });
        return xml.append("</remote_servers>").toString();
    }

    /** An S3 endpoint for one test, holding one bucket the implementation under test can read. */
    protected interface ObjectStorage extends AutoCloseable {
        /** The bucket's URL, {@code http://host:port/bucket}, without a trailing slash. */
        String bucketUrl();

        Secret accessKey();

        Secret secretKey();

        /** Stores {@code file} under {@code key} in the bucket. */
        void put(String key, Path file);

        @Override
        void close();
    }

    /**
     * A started S3 the implementation reads staged objects from (closed after the test); null when it reads no object
     * storage, and then {@link #readsNoObjectStorage()} must say why. A subclass declares one or the other.
     */
    protected ObjectStorage objectStorage() {
        return null;
    }

    /**
     * Why the implementation reads no object storage, or null when it does ({@link #objectStorage()}); the contract
     * then checks that it refuses the read rather than answer something.
     */
    protected String readsNoObjectStorage() {
        return null;
    }

    private static final Pattern UUID_TEXT =
        Pattern.compile("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$");
    private static final String TRICKY = "dpone:run=r1 \u2713 it's \"quoted\" back\\slash";

    /** The endpoint under test; it stays open for the whole test class. */
    protected abstract ClickHouseEndpoint endpoint();

    protected ClickHouseOperations ops;
    protected String db;

    @TempDir
    Path tmp;

    @BeforeEach
    void uniqueDatabase(TestInfo info) {
        ops = endpoint().operations();
        String method = info.getTestMethod().map(m -> m.getName()).orElse("test");
        db = ("dpone_ops_" + method + "_" + UUID.randomUUID().toString().substring(0, 8))
            .replaceAll("[^A-Za-z0-9_]", "_").toLowerCase(Locale.ROOT);
        ops.createDatabase(db);
    }

    @AfterEach
    void dropDatabase() {
        ops.dropDatabase(db);
        assertEquals(java.util.Optional.empty(), ops.databaseEngine(db));
    }

    private TableSpec staging(String name, List<String> orderBy, String comment) {
        List<Column> columns = new ArrayList<>(List.of(new Column("id", "Int64"), new Column("name", "String"),
            new Column("note", "Nullable(String)"), new Column("amount", "Decimal(18, 4)")));
        columns.addAll(MetadataColumns.columns());
        return new TableSpec(db, name, "MergeTree", columns, orderBy,
            Map.of("non_replicated_deduplication_window", "1000"), comment);
    }

    private ChunkInsert chunk(String table, String file, String tsv, String token) throws Exception {
        Path path = Files.writeString(tmp.resolve(file), tsv);
        return new ChunkInsert(db, table, List.of("id", "name", "note", "amount"),
            List.of("`id`", "`name`", "`note`", "`amount`"), new LoadStamp("r1", "load-1",
                Instant.parse("2026-01-02T03:04:05.678Z")), path, "TabSeparated",
            "`id` Int64, `name` String, `note` Nullable(String), `amount` Decimal(18, 4)", Map.of(), token);
    }

    @Test
    void aDatabaseIsCreatedAtomicOnceAndDropped() {
        assertEquals(java.util.Optional.of("Atomic"), ops.databaseEngine(db));
        ops.createDatabase(db); // idempotent
        assertEquals(java.util.Optional.of("Atomic"), ops.databaseEngine(db));
        String other = db + "_x";
        assertEquals(java.util.Optional.empty(), ops.databaseEngine(other));
        ops.dropDatabase(other); // a missing database is no error
        assertThrows(IllegalArgumentException.class, () -> ops.createDatabase("bad name; DROP"));
    }

    @Test
    void aCreatedTableReadsBackAsSpecified() {
        TableSpec spec = staging("stg", List.of("id"), TRICKY);
        ops.createTable(spec);

        TableInfo info = ops.table(db, "stg").orElseThrow();
        assertTrue(UUID_TEXT.matcher(info.uuid()).matches(), info.uuid());
        assertEquals("MergeTree", info.engine());
        assertEquals(TRICKY, info.comment());
        assertEquals("(id)", info.sortingKey(), "one key column reads back in brackets");
        assertEquals(0, info.totalRows());
        assertTrue(info.metadataModified().isAfter(Instant.now().minus(1, ChronoUnit.HOURS))
            && !info.metadataModified().isAfter(Instant.now().plusSeconds(2)), info.toString());
        assertEquals(spec.columns(), ops.columns(db, "stg"));

        ops.createTable(staging("two_keys", List.of("id", "name"), "c"));
        assertEquals("id, name", ops.table(db, "two_keys").orElseThrow().sortingKey());
        ops.createTable(staging("unsorted", List.of(), ""));
        assertEquals("", ops.table(db, "unsorted").orElseThrow().sortingKey());
        assertEquals("", ops.table(db, "unsorted").orElseThrow().comment());

        assertEquals(java.util.Optional.empty(), ops.table(db, "absent"));
        assertEquals(List.of(), ops.columns(db, "absent"));
        assertThrows(ClickHouseQueryException.class, () -> ops.createTable(spec), "the table exists");
        assertThrows(IllegalArgumentException.class, () -> ops.createTable(staging("bad`name", List.of(), "")));
    }

    @Test
    void tablesAreListedByPrefix() {
        ops.createTable(staging("__stg__b", List.of(), "b"));
        ops.createTable(staging("__stg__a", List.of(), "a"));
        ops.createTable(staging("other", List.of(), "o"));
        assertEquals(List.of("__stg__a", "__stg__b"), ops.tablesWithPrefix(db, "__stg__"));
        assertEquals(List.of(), ops.tablesWithPrefix(db + "_absent", "__stg__"));

        String unique = "stg_" + db;
        ops.createTable(staging(unique + "_2", List.of(), ""));
        ops.createTable(staging(unique + "_1", List.of(), ""));
        List<TableActivity> everywhere = ops.tablesWithPrefixEverywhere(unique);
        assertEquals(List.of(db + "." + unique + "_1", db + "." + unique + "_2"), everywhere.stream()
            .map(t -> t.database() + "." + t.name()).toList());
        Instant now = Instant.now();
        everywhere.forEach(t -> assertTrue(!t.lastActivity().isAfter(now.plusSeconds(2))
            && t.lastActivity().isAfter(now.minus(1, ChronoUnit.HOURS)), t.toString()));
    }

    @Test
    void exchangeSwapsTheTablesAndRenameMovesOne() {
        ops.createTable(staging("live", List.of("id"), "old"));
        ops.createTable(staging("staged", List.of("id"), "new"));
        String live = ops.table(db, "live").orElseThrow().uuid();
        String staged = ops.table(db, "staged").orElseThrow().uuid();
        assertNotEquals(live, staged);

        ops.exchange(db, "live", db, "staged");
        assertEquals(List.of(staged, "new"), List.of(ops.table(db, "live").orElseThrow().uuid(),
            ops.table(db, "live").orElseThrow().comment()), "the exchange moves the tables, not the data");
        assertEquals(List.of(live, "old"), List.of(ops.table(db, "staged").orElseThrow().uuid(),
            ops.table(db, "staged").orElseThrow().comment()));

        ops.rename(db, "staged", db, "predecessor");
        assertFalse(ops.table(db, "staged").isPresent());
        assertEquals(live, ops.table(db, "predecessor").orElseThrow().uuid());
        assertThrows(ClickHouseQueryException.class, () -> ops.rename(db, "predecessor", db, "live"),
            "a rename onto an existing table");
        assertThrows(ClickHouseQueryException.class, () -> ops.exchange(db, "live", db, "absent"));

        ops.dropTable(db, "predecessor");
        assertFalse(ops.table(db, "predecessor").isPresent());
        ops.dropTable(db, "predecessor"); // dropping what is gone is no error
        assertEquals(List.of("live"), ops.tablesWithPrefix(db, ""));
    }

    @Test
    void chunksLandAsOnePartEachAndARetriedChunkAddsNoRows() throws Exception {
        ops.createTable(staging("stg", List.of("id"), "c"));
        ops.stopMerges(db, "stg");
        ChunkInsert first = chunk("stg", "chunk-000000.tsv", "1\talpha\t\\N\t1.5000\n2\tbeta\tn\t-2.0000\n", "load-1:0");
        ops.insertChunk(first);
        ops.insertChunk(chunk("stg", "chunk-000001.tsv", "3\tgamma\t\\N\t0.0001\n", "load-1:1"));

        assertEquals(3, ops.count(db, "stg"));
        assertEquals(3, ops.table(db, "stg").orElseThrow().totalRows());
        assertEquals(new StagedLoads(3, 2), ops.stagedLoads(db, "stg"));
        List<String> parts = ops.activeParts(db, "stg");
        assertEquals(2, parts.size(), parts.toString());
        assertEquals(2, Set.copyOf(parts).size());

        ops.insertChunk(first); // a second delivery of the same chunk, with its token
        assertEquals(3, ops.count(db, "stg"), "deduplicated by its token");
        assertEquals(parts, ops.activeParts(db, "stg"));
        ops.startMerges(db, "stg");

        assertEquals(List.of(), ops.activeParts(db, "absent"));
        assertThrows(ClickHouseQueryException.class, () -> ops.count(db, "absent"));
        assertThrows(ClickHouseQueryException.class, () -> ops.insertChunk(
            chunk("absent", "chunk-000002.tsv", "4\td\t\\N\t1\n", null)));
    }

    @Test
    void stoppingTheMergesOfAMissingTableIsNoError() {
        ops.stopMerges(db, "absent");
        ops.startMerges(db, "absent");
        assertFalse(ops.table(db, "absent").isPresent());
    }

    @Test
    void onlyTheSettingsTheServerKnowsAreChangeable() {
        assertEquals(Set.of("max_threads"), ops.changeableSettings(List.of("max_threads", "dpone_no_such_setting")));
        assertEquals(Set.of(), ops.changeableSettings(List.of()));
    }

    @Test
    void serverSettingsAreReadByName() {
        assertEquals(Set.of("max_thread_pool_size"), ops.serverSettings(List.of("max_thread_pool_size",
            "dpone_no_such_server_setting")).keySet());
        assertTrue(Long.parseLong(ops.serverSettings(List.of("max_thread_pool_size")).get("max_thread_pool_size")) > 0);
        assertEquals(Map.of(), ops.serverSettings(List.of()));
    }

    @Test
    void configuredClustersListTheirReplicasByShardThenReplica() {
        CLUSTERS.forEach((name, replicas) -> {
            assertTrue(ops.clusterExists(name), name);
            assertEquals(replicas, ops.clusterReplicas(name), name);
        });
    }

    @Test
    void stagedObjectsAreCountedAndPulledWithTheLoadsStamp() throws Exception {
        String without = readsNoObjectStorage();
        ObjectStorage storage = objectStorage();
        if (storage == null) {
            assertTrue(without != null && !without.isBlank(), "an implementation that reads no object storage says why");
            ChunkLoads.ObjectRead unreachable = new ChunkLoads.ObjectRead("s3", null,
                "http://127.0.0.1:9/stage/x.tsv", null, Secret.of("ak"), Secret.of("sk"), "TabSeparated", "id Int64");
            assertThrows(UnsupportedOperationException.class, () -> ops.countObjectRows(unreachable, Map.of()),
                without);
            return;
        }
        try (ObjectStorage s3 = storage) {
            assertEquals(null, without, "an implementation given object storage reads it");
            s3.put(db + "/chunk-000000.tsv", Files.writeString(tmp.resolve("a.tsv"), "1\talpha\t\\N\t1.5000\n"
                + "2\tit's\tn\t-2.0000\n"));
            s3.put(db + "/chunk-000001.tsv", Files.writeString(tmp.resolve("b.tsv"), "3\tgamma\t\\N\t0.0001\n"));
            String structure = "id Int64, name String, note Nullable(String), amount Decimal(18, 4)";
            ChunkLoads.ObjectRead read = new ChunkLoads.ObjectRead("s3", null, s3.bucketUrl() + "/" + db
                + "/chunk-*.tsv", null, s3.accessKey(), s3.secretKey(), "TabSeparated", structure);
            assertEquals(3, ops.countObjectRows(read, Map.of("s3_throw_on_zero_files_match", "1")));

            ops.createTable(staging("stg", List.of("id"), "c"));
            ops.pull(new ChunkLoads.ObjectPull(db, "stg", List.of("id", "name", "note", "amount"),
                List.of("`id`", "`name`", "`note`", "`amount`"), new LoadStamp("r1", "pull-1",
                    Instant.parse("2026-01-02T03:04:05.678Z")), read, Map.of()));
            assertEquals(3, ops.count(db, "stg"));
            assertEquals(new StagedLoads(3, 1), ops.stagedLoads(db, "stg"), "one pull is one load");

            ChunkLoads.ObjectRead none = new ChunkLoads.ObjectRead("s3", null, s3.bucketUrl() + "/" + db
                + "/absent-*.tsv", null, s3.accessKey(), s3.secretKey(), "TabSeparated", structure);
            assertThrows(ClickHouseQueryException.class, () -> ops.countObjectRows(none,
                Map.of("s3_throw_on_zero_files_match", "1")), "no object matches the glob");
        }
    }

    @Test
    void clustersAndNamedCollectionsAreLookedUp() {
        assertFalse(ops.clusterExists("dpone_no_such_cluster_" + db));
        assertEquals(List.of(), ops.clusterReplicas("dpone_no_such_cluster_" + db));
        String collection = "dpone_nc_" + db;
        assertFalse(ops.namedCollectionExists(collection));
        try {
            ops.replaceNamedCollection(collection, Secret.of("ak"), Secret.of("sk"));
            assertTrue(ops.namedCollectionExists(collection));
            ops.replaceNamedCollection(collection, Secret.of("ak2"), Secret.of("sk2")); // replaced, not refused
            assertTrue(ops.namedCollectionExists(collection));
        } finally {
            ops.dropNamedCollection(collection);
        }
        assertFalse(ops.namedCollectionExists(collection));
        ops.dropNamedCollection(collection); // a missing collection is no error
    }

    @Test
    void pingAnswersAndGrantsAreGrantLines() {
        ops.ping();
        List<String> grants = ops.grants();
        assertTrue(grants.stream().allMatch(g -> g.startsWith("GRANT ")), grants.toString());
    }
}
