package io.dpone.certify;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseEndpoints;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.manifest.BatchManifest;
import io.dpone.manifest.TableRef;
import java.util.List;

/**
 * {@code safe_overrides.production_target_touched}: the production target's state in {@code system.tables}
 * (whether it exists, its UUID, its metadata modification time and its row count) read before the route matrix and
 * after it. A swap, drop, re-create, ALTER, insert or delete changes one of them; a background merge changes none.
 * It says whether the table changed during the certification, by anyone: certification itself writes only safe
 * targets, so a change means another writer was active (the figures then competed with it). It reads one node.
 */
final class ProductionTargetCheck {
    /** The target's observable state; {@code readable} is false when ClickHouse could not be asked. */
    record State(boolean readable, List<List<String>> row) {
    }

    private ProductionTargetCheck() {
    }

    static State read(BatchManifest manifest, ConnectionContext context) {
        TableRef t = manifest.sink().table();
        try (ClickHouseEndpoint ch = ClickHouseEndpoints.open(context.resolve(manifest.sink().connectionRef(),
                ConnectionType.CLICKHOUSE, "sink.connection_ref"))) {
            return new State(true, ch.operations().table(t.schema(), t.name()).map(i -> List.of(List.of(i.uuid(),
                i.metadataModified().toString(), String.valueOf(i.totalRows())))).orElse(List.of()));
        } catch (RuntimeException e) {
            return new State(false, List.of());
        }
    }

    /** True or false when both states were read, null when either could not be. */
    static Boolean touched(State before, State after) {
        if (!before.readable() || !after.readable()) {
            return null;
        }
        return !before.row().equals(after.row());
    }
}
