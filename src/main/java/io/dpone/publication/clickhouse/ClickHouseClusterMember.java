package io.dpone.publication.clickhouse;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseOperations;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.ServerClickHouseEndpoint;
import io.dpone.publication.MemberId;
import io.dpone.publication.artifact.ArtifactStore;
import io.dpone.publication.artifact.ParquetArtifactColumns;
import io.dpone.publication.artifact.SealedArtifact;
import io.dpone.publication.artifact.TableDefinition;
import io.dpone.publication.protocol.ClusterMember;
import io.dpone.publication.protocol.TableState;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * One admitted member over its own direct {@link ClickHouseEndpoint}. Every method is one statement (plus the
 * catalog read that makes it safe); artifacts come from the {@link ArtifactStore}, which re-verifies the file
 * before handing out its path. On a server, drops are {@code SYNC}; the embedded engine (chDB 26.5) never returns
 * from {@code DROP ... SYNC}, so there the drop is plain (an Atomic database removes the name at once).
 */
public final class ClickHouseClusterMember implements ClusterMember {
    private final MemberId id;
    private final ClickHouseEndpoint endpoint;
    private final ArtifactStore store;

    public ClickHouseClusterMember(MemberId id, ClickHouseEndpoint endpoint, ArtifactStore store) {
        this.id = id;
        this.endpoint = endpoint;
        this.store = store;
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
        String sql = TableDefinitionSql.create(definition, null);
        MemberFailures.run(id, "a table create", () -> endpoint.execute(sql));
    }

    @Override
    public void load(String database, String table, SealedArtifact artifact, String dedupToken) {
        Path file = store.open(artifact);
        List<TableDefinition.Column> cols = artifact.columns();
        ClickHouseEndpoint.InsertFile insert = new ClickHouseEndpoint.InsertFile(ClickHouseSql.table(database, table),
            ParquetArtifactColumns.columnList(cols), ParquetArtifactColumns.selectList(cols), file,
            artifact.format(), ParquetArtifactColumns.structure(cols), loadSettings(dedupToken));
        MemberFailures.run(id, "an artifact load", () -> endpoint.insertFile(insert));
    }

    /**
     * Synchronous and deduplicated by the token. A multi-block insert dedups block i by {@code token_i}, so the
     * file is read in its own row order to cut the same blocks on a retry (the protocol still never appends an
     * ambiguous load again: it rebuilds the candidate; the token is the second line of defence).
     */
    static String loadSettings(String dedupToken) {
        return "insert_deduplicate = 1, insert_deduplication_token = " + ClickHouseSql.literal(dedupToken)
            + ", async_insert = 0, input_format_parquet_preserve_order = 1";
    }

    @Override
    public boolean dropExact(String database, String table, UUID expected) {
        Optional<TableState> state = table(database, table);
        if (state.isEmpty() || !state.get().uuid().equals(expected)) {
            return false;
        }
        String sql = "DROP TABLE " + ClickHouseSql.table(database, table) + (embedded() ? "" : " SYNC");
        MemberFailures.run(id, "a table drop", () -> endpoint.execute(sql));
        return true;
    }

    @Override
    public void exchangeLocal(String database, String a, String b, String queryId) {
        String sql = "EXCHANGE TABLES " + ClickHouseSql.table(database, a) + " AND " + ClickHouseSql.table(database, b);
        MemberFailures.run(id, "a local exchange", () -> {
            if (endpoint instanceof ServerClickHouseEndpoint server) {
                server.execute(sql, queryId, Map.of());
            } else {
                endpoint.execute(sql);
            }
        });
    }

    /** {@code SYSTEM SYNC REPLICA} (internal mode only; the embedded engine has no replicated tables). */
    @Override
    public void syncReplica(String database, String table) {
        String sql = "SYSTEM SYNC REPLICA " + ClickHouseSql.table(database, table);
        MemberFailures.run(id, "a replica sync", () -> endpoint.execute(sql));
    }

    private boolean embedded() {
        return "embedded".equals(endpoint.kind());
    }
}
