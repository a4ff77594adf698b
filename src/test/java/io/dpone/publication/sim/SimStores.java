package io.dpone.publication.sim;

import io.dpone.publication.MemberId;
import io.dpone.publication.artifact.ArtifactExtraction;
import io.dpone.publication.artifact.ArtifactStore;
import io.dpone.publication.artifact.SealedArtifact;
import io.dpone.publication.artifact.TableDefinition;
import io.dpone.publication.protocol.FenceRecord;
import io.dpone.publication.protocol.PublicationAuthority;
import io.dpone.publication.protocol.PublicationClock;
import io.dpone.publication.protocol.Receipt;
import io.dpone.publication.protocol.ReceiptStore;
import io.dpone.publication.protocol.SourceState;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The simulated authority, artifact store, receipt store, source state and clock, all over {@link SimWorld}. */
final class SimStores {
    static final List<TableDefinition.Column> COLUMNS = List.of(new TableDefinition.Column("id", "Int64"));

    private SimStores() {
    }

    static final class Authority implements PublicationAuthority {
        private final SimWorld w;

        Authority(SimWorld w) {
            this.w = w;
        }

        @Override
        public Optional<Fence> read(String key) {
            w.faults.point("authority read", false);
            return Optional.ofNullable(w.authority.get(key));
        }

        @Override
        public boolean create(String key, FenceRecord record) {
            w.faults.sideEffect("authority create");
            if (w.authority.containsKey(key)) {
                return false;
            }
            w.authority.put(key, new Fence(record, 1));
            w.faults.sideEffect("after authority create");
            return true;
        }

        @Override
        public boolean replace(String key, long expectedVersion, FenceRecord record) {
            w.faults.sideEffect("authority replace");
            Fence f = w.authority.get(key);
            if (f == null || f.version() != expectedVersion) {
                return false;
            }
            w.authority.put(key, new Fence(record, expectedVersion + 1));
            w.faults.sideEffect("after authority replace");
            if (w.faults.lostAuthorityAck) {
                w.faults.lostAuthorityAck = false;
                w.faults.fired.add("lost_authority_ack");
                return false;
            }
            return true;
        }
    }

    static final class Artifacts implements ArtifactStore {
        private final SimWorld w;

        Artifacts(SimWorld w) {
            this.w = w;
        }

        @Override
        public Optional<SealedArtifact> find(String operationId) {
            return Optional.ofNullable(w.artifacts.get(operationId));
        }

        @Override
        public SealedArtifact seal(String operationId, ArtifactExtraction extraction) {
            w.faults.sideEffect("seal");
            List<Long> content = List.copyOf(w.source);
            String sha = MemberId.Digests.sha256Hex(content.toString());
            SealedArtifact a = new SealedArtifact(operationId, sha, SealedArtifact.schemaDigest(COLUMNS),
                content.size() * 8L, content.size(), COLUMNS, "Parquet");
            w.artifactContent.put(sha, content);
            w.artifacts.put(operationId, a);
            w.faults.sideEffect("after seal");
            return a;
        }

        @Override
        public Path open(SealedArtifact artifact) {
            throw new UnsupportedOperationException("simulated members read artifact content directly");
        }
    }

    static final class Receipts implements ReceiptStore {
        private final SimWorld w;

        Receipts(SimWorld w) {
            this.w = w;
        }

        @Override
        public Optional<Receipt> find(String operationId) {
            return Optional.ofNullable(w.receipts.get(operationId));
        }

        @Override
        public void write(Receipt receipt) {
            w.faults.sideEffect("receipt write");
            SimInvariants.onReceipt(w, receipt);
            w.receipts.put(receipt.operationId(), receipt);
            w.faults.sideEffect("after receipt write");
        }
    }

    static SourceState sourceState(SimWorld w) {
        return receipt -> {
            if (!w.receipts.containsKey(receipt.operationId())) {
                w.violations.add("source state advanced before the receipt was durable");
            }
            w.faults.sideEffect("source state");
            w.sourceAdvanced.add(receipt.operationId());
        };
    }

    static PublicationClock clock(SimWorld w) {
        return new PublicationClock() {
            @Override
            public Instant now() {
                return w.now;
            }

            @Override
            public void pause(Duration d) {
                w.elapse(d);
            }
        };
    }

    static ArtifactExtraction extraction() {
        return new ArtifactExtraction() {
            @Override
            public Result writeTo(Path file) {
                throw new UnsupportedOperationException("the simulated store seals from the world's source");
            }

            @Override
            public String format() {
                return "Parquet";
            }
        };
    }
}
