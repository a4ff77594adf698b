package io.dpone.publication.plan;

import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.manifest.BatchManifest;
import io.dpone.publication.protocol.PublicationMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The static side of cluster publication: reads the manifest's cluster design and decides the mode, collecting
 * every static blocker (each names its manifest path). Never opens a connection.
 */
public final class PublicationPlanner {
    public static final String ARTIFACT_STORE_ENV = "DPONE_EXTERNAL_ARTIFACT_STORE";
    private static final String CLUSTER = ClusterDesign.PATH + ".cluster";

    private PublicationPlanner() {
    }

    public static PublicationDecision decide(BatchManifest m, Function<String, String> env) {
        Optional<ClusterDesign> design = ClusterDesign.of(m.sink().options().physicalDesign());
        if (design.isEmpty()) {
            return PublicationDecision.local();
        }
        ClusterDesign d = design.get();
        PublicationMode mode = PublicationMode.ofReplicationMode(d.replicationMode());
        String engine = engine(d, mode);
        List<Blocker> blockers = new ArrayList<>();
        boolean replicated = engine.startsWith("Replicated");
        if (mode == PublicationMode.EXTERNAL && replicated) {
            blockers.add(Blocker.of(BlockerCode.PUBLICATION_EXTERNAL_REPLICATED_ENGINE, ClusterDesign.PATH + ".engine",
                "external replication needs a non-replicated MergeTree table: fan-out plus replication would duplicate delivery"));
        }
        if (mode == PublicationMode.INTERNAL && !replicated) {
            blockers.add(Blocker.of(BlockerCode.PUBLICATION_INTERNAL_ENGINE_NOT_REPLICATED, ClusterDesign.PATH + ".engine",
                "internal replication needs a Replicated*MergeTree table: one staged insert would not reach every member"));
        }
        if (d.ddlScope() != null && !d.ddlScope().equals("cluster")) {
            blockers.add(Blocker.of(BlockerCode.PUBLICATION_DDL_SCOPE_NOT_CLUSTER, CLUSTER + ".ddl_scope",
                "a cluster publication needs ddl_scope: cluster"));
        }
        if (!m.sink().stagingSchema().equals(m.sink().table().schema())) {
            blockers.add(Blocker.of(BlockerCode.PUBLICATION_CANDIDATE_DATABASE_MISMATCH, "sink.staging.schema",
                "the candidate must be staged in the target's database (EXCHANGE needs both in one database)"));
        }
        if (mode == PublicationMode.EXTERNAL) {
            if (m.sink().options().lineage()) {
                blockers.add(Blocker.of(BlockerCode.PUBLICATION_LINEAGE_UNSUPPORTED, "sink.options.lineage",
                    "the external route publishes the sealed artifact unchanged: lineage must be false"));
            }
            artifactStoreBlocker(m, env).ifPresent(blockers::add);
        }
        String store = mode == PublicationMode.EXTERNAL
            ? (artifactStore(m, env).isPresent() ? "configured" : "missing") : null;
        return new PublicationDecision(true, blockers.isEmpty(), mode.mode(), mode.replicationMode(), true, true,
            d.cluster(), engine, d.ddlScope() == null ? "cluster" : d.ddlScope(), d.rowBudget(), store, blockers);
    }

    /** The engine, defaulted by mode when the manifest leaves it out. */
    static String engine(ClusterDesign d, PublicationMode mode) {
        if (d.engine() != null) {
            return d.engine();
        }
        return mode == PublicationMode.INTERNAL ? "ReplicatedMergeTree" : "MergeTree";
    }

    /** The configured artifact store text: the environment overrides the manifest. */
    public static Optional<String> artifactStore(BatchManifest m, Function<String, String> env) {
        String fromEnv = env.apply(ARTIFACT_STORE_ENV);
        if (fromEnv != null && !fromEnv.isBlank()) {
            return Optional.of(fromEnv);
        }
        return Optional.ofNullable(m.sink().options().externalArtifactStorePath());
    }

    /** Missing or relative artifact store (also re-checked at run time, before the Keeper lock). */
    public static Optional<Blocker> artifactStoreBlocker(BatchManifest m, Function<String, String> env) {
        Optional<String> store = artifactStore(m, env);
        if (store.isEmpty()) {
            return Optional.of(Blocker.of(BlockerCode.PUBLICATION_ARTIFACT_STORE_MISSING,
                "sink.options.external_artifact_store_path",
                "external publication needs a durable artifact store: set " + ARTIFACT_STORE_ENV
                    + " or sink.options.external_artifact_store_path (there is no /tmp fallback)"));
        }
        if (!Path.of(store.get()).isAbsolute()) {
            return Optional.of(Blocker.of(BlockerCode.PUBLICATION_ARTIFACT_STORE_NOT_ABSOLUTE,
                "sink.options.external_artifact_store_path", "the artifact store must be an absolute path"));
        }
        return Optional.empty();
    }
}
