package io.dpone.publication.keeper;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseQueryException;
import io.dpone.clickhouse.cluster.KeeperMapFence;
import io.dpone.connect.Redactor;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.publication.protocol.FenceRecord;
import io.dpone.publication.protocol.PublicationAuthority;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The publication authority as a KeeperMap table ({@code target_key String, record String, version UInt64},
 * primary key {@code target_key}) on the platform's Keeper:
 * <ul>
 * <li>{@link #create}: {@code INSERT ... SETTINGS keeper_map_strict_mode = 1}. In strict mode an insert of an
 *     existing key fails atomically in Keeper ({@code Transaction failed (Node exists)}); that is "already
 *     fenced", reported as {@code false}. A retried insert whose first attempt landed (lost acknowledgement) also
 *     reports "exists": the caller re-reads and compares the owner operation id, as the interface says.</li>
 * <li>{@link #replace}: {@code ALTER TABLE ... UPDATE record = new, version = expected + 1 WHERE target_key = k AND
 *     version = expected SETTINGS keeper_map_strict_mode = 1}. Strict mode makes the read-modify-write one Keeper
 *     transaction checked against the node versions it read, so a concurrent writer makes it fail
 *     ({@code Bad version}); a stale {@code expected} matches no row and changes nothing. Either way, and after a
 *     lost acknowledgement, the outcome is decided by re-reading: the write is ours exactly when the stored
 *     version is {@code expected + 1} and the stored record equals ours.</li>
 * </ul>
 * The {@code version} column is the {@link Fence#version()}: 1 after create, +1 per replace. The statements are
 * the ClickHouse package's ({@link KeeperMapFence}); what their failures mean is decided here.
 */
public final class KeeperMapAuthority implements PublicationAuthority {
    private static final Pattern KEY = Pattern.compile("^[A-Za-z0-9_.:-]{1,200}$");
    private static final Pattern KEEPER_PATH = Pattern.compile("^(/[A-Za-z0-9_.-]+)+$");

    private final KeeperMapFence fence;

    private KeeperMapAuthority(KeeperMapFence fence) {
        this.fence = fence;
    }

    /**
     * Opens the authority in {@code database.table}, creating the Atomic database and the KeeperMap table at
     * {@code keeperPath} (below the server's {@code keeper_map_path_prefix}) when missing.
     */
    public static KeeperMapAuthority open(ClickHouseEndpoint endpoint, String database, String table,
                                          String keeperPath) {
        if (keeperPath == null || !KEEPER_PATH.matcher(keeperPath).matches()) {
            throw new IllegalArgumentException("keeper path must be an absolute path of plain segments");
        }
        KeeperMapAuthority authority = new KeeperMapAuthority(KeeperMapFence.of(endpoint, database, table));
        authority.call("open", () -> {
            authority.fence.create(database, keeperPath);
            return null;
        });
        return authority;
    }

    @Override
    public Optional<Fence> read(String targetKey) {
        String key = key(targetKey);
        Optional<KeeperMapFence.Stored> stored = call("read", () -> fence.read(key));
        return stored.map(s -> new Fence(FenceRecordJson.decode(s.record(), key), s.version()));
    }

    @Override
    public boolean create(String targetKey, FenceRecord record) {
        String key = key(targetKey);
        String encoded = FenceRecordJson.encode(record);
        try {
            fence.insert(key, encoded);
            return true;
        } catch (ClickHouseQueryException e) {
            if (nodeExists(e)) {
                return false;
            }
            throw unavailable("create", e);
        } catch (DponeException e) {
            throw unavailable("create", e);
        }
    }

    @Override
    public boolean replace(String targetKey, long expectedVersion, FenceRecord record) {
        String key = key(targetKey);
        String encoded = FenceRecordJson.encode(record);
        try {
            fence.replace(key, expectedVersion, encoded);
        } catch (ClickHouseQueryException | DponeException e) {
            // a version conflict, or an unknown outcome: the stored state decides
        }
        return read(key).map(f -> f.version() == expectedVersion + 1 && f.record().equals(record)).orElse(false);
    }

    static boolean nodeExists(ClickHouseQueryException e) {
        String m = String.valueOf(e.getMessage());
        return m.contains("Node exists") || m.contains("ZNODEEXISTS");
    }

    private static String key(String targetKey) {
        if (targetKey == null || !KEY.matcher(targetKey).matches()) {
            throw new IllegalArgumentException("target key must be 1-200 letters, digits, '_', '.', ':' or '-'");
        }
        return targetKey;
    }

    private <T> T call(String what, java.util.function.Supplier<T> op) {
        try {
            return op.get();
        } catch (ClickHouseQueryException | DponeException e) {
            throw unavailable(what, e);
        }
    }

    private static DponeException unavailable(String what, RuntimeException e) {
        return new DponeException(BlockerCode.PUBLICATION_AUTHORITY_UNAVAILABLE, "authority",
            "the KeeperMap publication authority failed during " + what + ": "
                + Redactor.global().redact(String.valueOf(e.getMessage())));
    }
}
