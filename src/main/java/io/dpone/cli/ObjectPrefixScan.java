package io.dpone.cli;

import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.manifest.BatchManifest;
import io.dpone.manifest.ColumnarFastPath;
import io.dpone.manifest.ManifestLoader;
import io.dpone.storage.RunPrefix;
import io.dpone.storage.StagingStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The object-storage run prefixes that the {@code uri_prefix} templates of some manifests name, for
 * {@code dpone ops cleanup --manifest}: each template's store is listed under the key part before {@code {run_id}}
 * (object names and times only, never an object's content), the keys are grouped by the run prefix that holds them
 * ({@link RunPrefix#owning}), and a prefix is deleted only as a whole. A prefix shared by two manifests is said once.
 * Every manifest is loaded and every store opened before anything is deleted: a bad manifest stops the command
 * with nothing removed.
 */
final class ObjectPrefixScan implements AutoCloseable {
    private static final String PATH = "source.options.native_transfer.snapshot.columnar_fast_path.object_storage";

    /** One run's prefix: where it lies (alias and key prefix), its run id, when an object in it was last written. */
    record Leftover(String alias, RunPrefix prefix, Instant lastActivity) {
        String name() {
            return alias + ":" + prefix.bucket() + "/" + prefix.keyPrefix();
        }
    }

    private final List<StagingStore> stores = new ArrayList<>();
    private final Map<String, StagingStore> byLeftover = new LinkedHashMap<>();
    private final List<Leftover> leftovers = new ArrayList<>();

    /** Lists the prefixes of {@code manifests}' templates; throws, typed, naming the manifest, before deleting. */
    ObjectPrefixScan(ConnectionContext ctx, List<Path> manifests) {
        try {
            for (Path file : manifests) {
                BatchManifest m = ManifestLoader.load(file);
                ColumnarFastPath cfg = ColumnarFastPath.of(m.source().nativeTransfer()).orElse(null);
                if (cfg == null || cfg.uriPrefix() == null || cfg.runtimeConnectionId() == null) {
                    throw new DponeException(BlockerCode.MANIFEST_MISSING_FIELD, file.getFileName() + ":" + PATH,
                        "--manifest names a manifest without object storage (uri_prefix and runtime_access)");
                }
                String template = cfg.uriPrefix();
                String bucket;
                try {
                    bucket = RunPrefix.of(template, "probe").bucket();
                } catch (IllegalArgumentException e) {
                    throw new DponeException(BlockerCode.MANIFEST_INVALID_VALUE, file.getFileName() + ":" + PATH
                        + ".uri_prefix", e.getMessage());
                }
                StagingStore store = StagingStore.open(ctx.resolve(cfg.runtimeConnectionId(), ConnectionType.S3,
                    PATH + ".runtime_access.connection_id"), bucket);
                stores.add(store);
                collect(cfg.runtimeConnectionId(), template, store);
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private void collect(String alias, String template, StagingStore store) {
        Map<String, Leftover> found = new LinkedHashMap<>();
        store.store().listModified(RunPrefix.scanPrefix(template)).forEach((key, modified) ->
            RunPrefix.owning(template, key).ifPresent(p -> {
                Leftover seen = found.get(p.keyPrefix());
                // an object without a time makes the whole prefix's age unknown: it is kept
                Instant last = seen == null ? modified : seen.lastActivity() == null || modified == null ? null
                    : modified.isAfter(seen.lastActivity()) ? modified : seen.lastActivity();
                found.put(p.keyPrefix(), new Leftover(alias, p, last));
            }));
        for (Leftover l : found.values()) {
            if (byLeftover.putIfAbsent(l.name(), store) == null) {
                leftovers.add(l);
            }
        }
    }

    List<Leftover> leftovers() {
        return List.copyOf(leftovers);
    }

    /** Deletes every object under {@code l}'s run prefix (and only there); returns how many. */
    int delete(Leftover l) {
        return byLeftover.get(l.name()).store().deletePrefix(l.prefix().keyPrefix());
    }

    @Override
    public void close() {
        for (StagingStore s : stores) {
            try {
                s.close();
            } catch (RuntimeException ignored) {
                // closing a client after listing loses nothing
            }
        }
    }
}
