package io.dpone.publication.protocol;

import io.dpone.publication.MemberId;
import io.dpone.publication.artifact.ArtifactExtraction;
import io.dpone.publication.artifact.ArtifactStore;
import io.dpone.publication.artifact.SealedArtifact;
import io.dpone.publication.artifact.TableDefinition;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The environment as one process may write it: every write to a member, the DDL channel, the artifact or receipt
 * store or the source state first checks that the authority still holds this process's record
 * ({@link AuthorityCursor#verify()}). An old process paused mid-protocol and overtaken by a resumed one therefore
 * stops before its next write. A statement it had already sent when it paused is not recalled (ClickHouse has no
 * statement conditional on the authority); see {@code docs/publication.md} for what such a late statement can do.
 */
final class FencedWrites {
    private FencedWrites() {
    }

    static PublicationEnvironment around(PublicationEnvironment env, AuthorityCursor cursor) {
        Map<MemberId, ClusterMember> members = new LinkedHashMap<>();
        env.members().forEach((id, m) -> members.put(id, new Member(m, cursor)));
        ClusterDdl ddl = new ClusterDdl() {
            @Override
            public void submit(String queryId, ClusterStatement statement) {
                cursor.verify();
                env.ddl().submit(queryId, statement);
            }

            @Override
            public Optional<DdlQueueEntry> entry(String queryId) {
                return env.ddl().entry(queryId);
            }
        };
        ReceiptStore receipts = new ReceiptStore() {
            @Override
            public Optional<Receipt> find(String operationId) {
                return env.receipts().find(operationId);
            }

            @Override
            public void write(Receipt receipt) {
                cursor.verify();
                env.receipts().write(receipt);
            }
        };
        SourceState source = receipt -> {
            cursor.verify();
            env.sourceState().advance(receipt);
        };
        return new PublicationEnvironment(env.runId(), env.operationId(), env.target(), env.inventory(), members,
            ddl, env.authority(), new Artifacts(env.artifacts(), cursor), env.extraction(), receipts, source,
            env.clock(), env.settings());
    }

    private record Member(ClusterMember member, AuthorityCursor cursor) implements ClusterMember {
        @Override
        public Optional<TableState> table(String database, String table) {
            return member.table(database, table);
        }

        @Override
        public void create(TableDefinition definition) {
            cursor.verify();
            member.create(definition);
        }

        @Override
        public void load(String database, String table, SealedArtifact artifact, String dedupToken) {
            cursor.verify();
            member.load(database, table, artifact, dedupToken);
        }

        @Override
        public boolean dropExact(String database, String table, UUID expected) {
            cursor.verify();
            return member.dropExact(database, table, expected);
        }

        @Override
        public void exchangeLocal(String database, String a, String b, String queryId) {
            cursor.verify();
            member.exchangeLocal(database, a, b, queryId);
        }

        @Override
        public void syncReplica(String database, String table) {
            member.syncReplica(database, table);
        }
    }

    private record Artifacts(ArtifactStore store, AuthorityCursor cursor) implements ArtifactStore {
        @Override
        public Optional<SealedArtifact> find(String operationId) {
            return store.find(operationId);
        }

        @Override
        public SealedArtifact seal(String operationId, ArtifactExtraction extraction) {
            cursor.verify();
            return store.seal(operationId, extraction);
        }

        @Override
        public Path open(SealedArtifact artifact) {
            return store.open(artifact);
        }
    }
}
