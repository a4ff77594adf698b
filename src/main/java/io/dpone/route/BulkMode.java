package io.dpone.route;

import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ContextEntry;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.manifest.BatchManifest;
import java.util.Optional;

/**
 * {@code sink.options.clickhouse_bulk.mode}: how chunks reach ClickHouse. dpone has two transports and the sink
 * connection decides which one a run uses: {@code client}, the embedded engine's in-process client (an embedded
 * {@code sink.connection_ref}), and {@code http}, ClickHouse's HTTP interface through client-v2 (a server alias).
 * dpone has no native-protocol {@code clickhouse-client} transport. A mode the sink cannot give is refused
 * ({@code manifest.option_unsupported} at {@value #PATH}) by {@code dpone check}, before a run and before a
 * certification, instead of loading over the other transport; without the key the sink's own transport is used.
 */
public final class BulkMode {
    public static final String PATH = "sink.options.clickhouse_bulk.mode";

    private BulkMode() {
    }

    /** The blocker when {@code mode} (null: not set) is not the transport of the sink alias {@code sink} names. */
    public static Optional<Blocker> check(String mode, ContextEntry sink) {
        if (mode == null || sink == null) {
            return Optional.empty(); // an unknown alias is connection.ref_unknown, reported where it is resolved
        }
        if (mode.equals("client") && !sink.embedded()) {
            return Optional.of(Blocker.of(BlockerCode.MANIFEST_OPTION_UNSUPPORTED, PATH, "clickhouse_bulk.mode is "
                + "client, but sink.connection_ref names a ClickHouse server, which dpone reaches over HTTP only "
                + "(no native clickhouse-client transport): set mode: http"));
        }
        if (mode.equals("http") && sink.embedded()) {
            return Optional.of(Blocker.of(BlockerCode.MANIFEST_OPTION_UNSUPPORTED, PATH, "clickhouse_bulk.mode is "
                + "http, but sink.connection_ref names the embedded engine, which dpone drives in-process (no HTTP "
                + "interface): set mode: client, or point the sink at a ClickHouse server"));
        }
        return Optional.empty();
    }

    /** Throws the blocker when {@code manifest}'s mode does not fit its sink in {@code context}. */
    public static void require(BatchManifest manifest, ConnectionContext context) {
        var bulk = manifest.sink().options().clickhouseBulk();
        String mode = bulk == null || !bulk.hasNonNull("mode") ? null : bulk.get("mode").asText();
        check(mode, context.entry(manifest.sink().connectionRef()).orElse(null)).ifPresent(b -> {
            throw new DponeException(b);
        });
    }
}
