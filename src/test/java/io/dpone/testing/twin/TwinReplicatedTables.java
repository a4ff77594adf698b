package io.dpone.testing.twin;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * This twin's replicated tables, kept under its data path so they survive a restart: one directory per table UUID
 * ({@code twin-replication/<uuid>/}) with {@code replica.json} (the engine as created, the replication path and this
 * replica's name) and {@code blocks/<block id>.data}, every block it inserted or fetched (what other replicas fetch
 * from it, as a server serves its parts). The embedded engine holds the table itself under the non-replicated engine.
 */
final class TwinReplicatedTables {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern UUID_TEXT = Pattern.compile("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$");
    private static final Pattern BLOCK_ID = Pattern.compile("^[A-Za-z0-9_]{1,80}$");

    /** One replicated table on this twin: its UUID, engine as created, replication path and replica name. */
    record Replica(String uuid, String engine, String zkPath, String name) {
    }

    private final Path root;
    private final Map<String, Replica> byUuid = new ConcurrentHashMap<>();

    TwinReplicatedTables(Path dataPath) throws IOException {
        this.root = Files.createDirectories(dataPath.resolve("twin-replication"));
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path dir : dirs.toList()) {
                Path file = dir.resolve("replica.json");
                if (Files.isRegularFile(file)) {
                    Replica r = JSON.readValue(file.toFile(), Replica.class);
                    byUuid.put(r.uuid(), r);
                }
            }
        }
    }

    Optional<Replica> get(String uuid) {
        return Optional.ofNullable(byUuid.get(uuid));
    }

    Collection<Replica> all() {
        return List.copyOf(byUuid.values());
    }

    void add(Replica r) throws IOException {
        Path dir = dir(r.uuid());
        Files.createDirectories(dir.resolve("blocks"));
        Path tmp = Files.createTempFile(dir, "replica-", ".tmp");
        JSON.writeValue(tmp.toFile(), r);
        Files.move(tmp, dir.resolve("replica.json"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        byUuid.put(r.uuid(), r);
    }

    /** Forgets a dropped table and deletes its blocks. */
    void remove(String uuid) throws IOException {
        byUuid.remove(uuid);
        Path dir = dir(uuid);
        if (Files.exists(dir)) {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /** Where the block {@code blockId} of table {@code uuid} is kept (present once inserted or fetched). */
    Path block(String uuid, String blockId) {
        if (!BLOCK_ID.matcher(blockId).matches()) {
            throw new IllegalArgumentException("not a block id");
        }
        return dir(uuid).resolve("blocks").resolve(blockId + ".data");
    }

    /** A new temporary file in table {@code uuid}'s directory (a block being received). */
    Path spool(String uuid) {
        try {
            return Files.createTempFile(Files.createDirectories(dir(uuid)), "incoming-", ".tmp");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Path dir(String uuid) {
        if (!UUID_TEXT.matcher(uuid).matches()) {
            throw new IllegalArgumentException("not a table UUID");
        }
        return root.resolve(uuid);
    }
}
