package io.dpone.publication.clickhouse;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseOperations;
import io.dpone.clickhouse.cluster.MemberStatements;
import io.dpone.publication.MemberId;
import io.dpone.publication.artifact.ArtifactStore;
import io.dpone.publication.artifact.ParquetArtifactColumns;
import io.dpone.publication.artifact.SealedArtifact;
import io.dpone.publication.artifact.TableDefinition;
import io.dpone.publication.protocol.ClusterMember;
import io.dpone.publication.protocol.TableState;
import java.nio.file.Path;
import java.util.Optional;
import java.util.UUID;

/**
 * One admitted member over its own direct {@link ClickHouseEndpoint}. Every method is one statement of the ClickHouse
 * package's {@link MemberStatements} (plus the catalog read that makes it safe); artifacts come from the
 * {@link ArtifactStore}, which re-verifies the file before handing out its path. On a server, drops are {@code SYNC};
 * the embedded engine (chDB 26.5) never returns from {@code DROP ... SYNC}, so there the drop is plain (an Atomic
 * database removes the name at once).
 */
public final class ClickHouseClusterMember implements ClusterMember {
    private final MemberId id;
    private final ClickHouseEndpoint endpoint;
    private final ArtifactStore store;
    private final MemberStatements statements;

    public ClickHouseClusterMember(MemberId id, ClickHouseEndpoint endpoint, ArtifactStore store) {
        this.id = id;
        this.endpoint = endpoint;
        this.store = store;
        this.statements = new MemberStatements(endpoint);
    }

    public MemberId id() {
        return id;
    }

    @Override
    public Optional<TableState> table(String database, String table) {
        return MemberFailures.call(id, "a table read", () -> {
            Optional<ClickHouseOperations.TableInfo> info = endpoint.operations().table(database, table);
            if (info.isEmpty()) {
                return Optional.<TableState>empty();
            }
            ClickHouseOperations.TableInfo t = info.get();
            // exact count, never total_rows estimates
            long count = endpoint.operations().count(database, table);
            return Optional.of(new TableState(UUID.fromString(t.uuid()), t.engine(), t.comment(), count));
        });
    }

    @Override
    public void create(TableDefinition definition) {
        var table = TableDefinitions.table(definition);
        MemberFailures.run(id, "a table create", () -> statements.createTable(table));
    }

    /**
     * Synchronous and deduplicated by the token. A multi-block insert dedups block i by {@code token_i}, so the
     * file is read in its own row order to cut the same blocks on a retry (the protocol still never appends an
     * ambiguous load again: it rebuilds the candidate; the token is the second line of defence).
     */
    @Override
    public void load(String database, String table, SealedArtifact artifact, String dedupToken) {
        Path file = store.open(artifact);
        MemberStatements.ArtifactLoad load = new MemberStatements.ArtifactLoad(database, table, artifact.columns()
            .stream().map(c -> new MemberStatements.ArtifactColumn(c.name(), c.type(),
                ParquetArtifactColumns.fileType(c.type()))).toList(), file, artifact.format(), dedupToken);
        MemberFailures.run(id, "an artifact load", () -> statements.loadArtifact(load));
    }

    @Override
    public boolean dropExact(String database, String table, UUID expected) {
        Optional<TableState> state = table(database, table);
        if (state.isEmpty() || !state.get().uuid().equals(expected)) {
            return false;
        }
        MemberFailures.run(id, "a table drop", () -> statements.dropTable(database, table));
        return true;
    }

    @Override
    public void exchangeLocal(String database, String a, String b, String queryId) {
        MemberFailures.run(id, "a local exchange", () -> statements.exchange(database, a, b, queryId));
    }

    /** {@code SYSTEM SYNC REPLICA} (internal mode only; the embedded engine has no replicated tables). */
    @Override
    public void syncReplica(String database, String table) {
        MemberFailures.run(id, "a replica sync", () -> statements.syncReplica(database, table));
    }
}
