package io.dpone.publication.runtime;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseEndpoints;
import io.dpone.clickhouse.ServerClickHouseEndpoint;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.manifest.BatchManifest;
import io.dpone.publication.MemberId;
import io.dpone.publication.admission.ConfiguredEndpointResolver;
import io.dpone.publication.admission.DdlQueueSettings;
import io.dpone.publication.admission.EndpointResolver;
import io.dpone.publication.artifact.ArtifactStore;
import io.dpone.publication.artifact.FileArtifactStore;
import io.dpone.publication.artifact.ParquetArtifactExtraction;
import io.dpone.publication.clickhouse.ClickHouseClusterDdl;
import io.dpone.publication.clickhouse.ClickHouseClusterMember;
import io.dpone.publication.keeper.KeeperMapAuthority;
import io.dpone.publication.plan.PublicationDecision;
import io.dpone.publication.plan.PublicationPlanner;
import io.dpone.publication.protocol.ClusterMember;
import io.dpone.publication.protocol.ClusterPublication;
import io.dpone.publication.protocol.OperationIds;
import io.dpone.publication.protocol.PublicationClock;
import io.dpone.publication.protocol.PublicationEnvironment;
import io.dpone.publication.protocol.PublicationMode;
import io.dpone.publication.protocol.PublicationOutcome;
import io.dpone.publication.protocol.PublicationSettings;
import io.dpone.publication.protocol.PublicationTarget;
import io.dpone.publication.protocol.SourceState;
import io.dpone.publication.receipt.FileReceiptStore;
import io.dpone.report.Json;
import io.dpone.source.JdbcSourceReader;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * One cluster publication ({@code dpone run} for a manifest that requests it), as three steps that the
 * {@code cluster_publication} route runs in order and {@link ClusterPublicationRunner} runs without Camel:
 * <ol>
 *   <li>{@link #decide()}: the static decision, the run id, the artifact store (before any lock);</li>
 *   <li>{@link #admit()}: the sink connection, runtime admission of every member (before any extraction), the
 *       source connection;</li>
 *   <li>{@link #publish()}: the fenced protocol with the real adapters: ClickHouse members over direct connections,
 *       ON CLUSTER DDL through the sink connection, the KeeperMap authority, the file artifact and receipt stores
 *       and the Parquet extraction.</li>
 * </ol>
 * A step that cannot go on throws a typed {@link DponeException}; {@link #result(List)} then reports what is known.
 * The job owns the connections {@link #admit()} opens and {@link #close()} closes them. Never falls back to a local
 * publication.
 *
 * <p>Sink alias options read here: {@code members} (advertised {@code host:port=alias} pairs, see
 * {@link ConfiguredEndpointResolver}), {@code authority_database} / {@code authority_table} /
 * {@code authority_keeper_path} (default {@code dpone_authority.publication_fence} at
 * {@code /dpone/publication_fence}), {@code max_recovery_window} and {@code ddl_wait} (ISO-8601 durations).
 */
public final class ClusterPublicationJob implements AutoCloseable {
    private final BatchManifest m;
    private final String runId;
    private final ConnectionContext context;
    private final Function<String, String> env;
    private final java.util.function.UnaryOperator<ClusterMember> memberDecorator;
    private final Instant started = Instant.now();
    private PublicationDecision decision;
    private PublicationMode mode;
    private Path store;
    private PublicationTarget target;
    private String operationId;
    private ConnectionSpec sinkSpec;
    private PublicationSettings settings;
    private ClickHouseEndpoint entry;
    private ClusterAdmission.Admitted admitted;
    private JdbcSourceReader source;
    private ClusterPublicationResult result;
    private List<Blocker> outcomeBlockers = List.of();

    ClusterPublicationJob(BatchManifest m, String runId, ConnectionContext context, Function<String, String> env,
                          java.util.function.UnaryOperator<ClusterMember> memberDecorator) {
        this.m = m;
        this.runId = runId;
        this.context = context;
        this.env = env;
        this.memberDecorator = memberDecorator;
    }

    /** A job for {@code m} with {@code runId}, reading the artifact store's environment from {@code env}. */
    public static ClusterPublicationJob of(BatchManifest m, String runId, ConnectionContext context,
                                           Function<String, String> env) {
        return new ClusterPublicationJob(m, runId, context, env, java.util.function.UnaryOperator.identity());
    }

    /** Step 1: the static decision, the run id and the artifact store. */
    public void decide() {
        decision = PublicationPlanner.decide(m, env);
        if (!io.dpone.manifest.RunId.valid(runId)) {
            throw new DponeException(BlockerCode.RUN_ID_INVALID, "--run-id", io.dpone.manifest.RunId.RULE);
        }
        mode = PublicationMode.ofReplicationMode(decision.replicationMode());
        if (!decision.blockers().isEmpty()) {
            throw new DponeException(decision.blockers());
        }
        store = artifactStore(m, mode);
        target = new PublicationTarget(mode, decision.cluster(), m.sink().table().schema(),
            m.sink().table().name(), decision.engine(), m.sink().options().orderBy(), decision.externalContentRowBudget());
        operationId = OperationIds.operation(runId, planDigest(m, decision));
    }

    /** Step 2: the sink connection and its settings, every member admitted, the source connection. */
    public void admit() {
        sinkSpec = context.resolve(m.sink().connectionRef(), ConnectionType.CLICKHOUSE, "sink.connection_ref");
        Duration recovery = duration(sinkSpec, "max_recovery_window", PublicationSettings.DEFAULTS.maxRecoveryWindow());
        Duration ddlWait = duration(sinkSpec, "ddl_wait", PublicationSettings.DEFAULTS.ddlWait());
        entry = ClickHouseEndpoints.open(sinkSpec);
        EndpointResolver resolver = new ConfiguredEndpointResolver(context, m.sink().connectionRef());
        admitted = ClusterAdmission.admit(entry, resolver, target, recovery);
        settings = settings(admitted.ddlQueue(), recovery, ddlWait);
        source = JdbcSourceReader.open(context.resolve(m.source().connectionRef(), ConnectionType.MSSQL,
            "source.connection_ref"));
        if (!(entry instanceof ServerClickHouseEndpoint)) {
            throw new DponeException(BlockerCode.PUBLICATION_CLUSTER_DDL_UNAVAILABLE, "sink.connection_ref",
                "the sink connection cannot run distributed DDL");
        }
    }

    /** Step 3: the fenced protocol; its outcome (and any blockers it reports) is kept for the result. */
    public void publish() {
        ServerClickHouseEndpoint server = (ServerClickHouseEndpoint) entry;
        ArtifactStore artifacts = new FileArtifactStore(store);
        Map<MemberId, ClusterMember> members = new LinkedHashMap<>();
        admitted.endpoints().forEach((id, e) ->
            members.put(id, memberDecorator.apply(new ClickHouseClusterMember(id, e, artifacts))));
        KeeperMapAuthority authority = KeeperMapAuthority.open(entry,
            sinkSpec.option("authority_database", "dpone_authority"),
            sinkSpec.option("authority_table", "publication_fence"),
            sinkSpec.option("authority_keeper_path", "/dpone/publication_fence"));
        long budget = decision.externalContentRowBudget() == null || mode == PublicationMode.INTERNAL
            ? 0 : decision.externalContentRowBudget();
        long maxBytes = m.sink().maxSourceBytes() == null ? 0 : m.sink().maxSourceBytes();
        PublicationEnvironment environment = new PublicationEnvironment(runId, operationId, target,
            admitted.inventory(), members, new ClickHouseClusterDdl(target.cluster(), server, settings.ddlWait()),
            authority, artifacts, new ParquetArtifactExtraction(source, m.source().table(),
                m.source().columns(), maxBytes, budget),
            new FileReceiptStore(store), SourceState.NONE, PublicationClock.SYSTEM, settings);
        PublicationOutcome outcome = new ClusterPublication(environment).run();
        result = resultOf(decision, operationId, admitted, outcome);
        outcomeBlockers = outcome.blockers();
    }

    /**
     * What the run did: the protocol's outcome after {@link #publish()}, else what the steps that ran established;
     * {@code failure} holds the blockers of the step that stopped it (empty when all three ran).
     */
    public ClusterRun result(List<Blocker> failure) {
        List<Blocker> blockers = new java.util.ArrayList<>(failure);
        blockers.addAll(outcomeBlockers);
        PublicationDecision d = decision != null ? decision : PublicationPlanner.decide(m, env);
        return report(m, runId, started, d, operationId, result, blockers);
    }

    /** Closes the source, the admitted members' connections and the sink connection, in that order. */
    @Override
    public void close() {
        if (source != null) {
            source.close();
        }
        if (admitted != null) {
            admitted.close();
        }
        if (entry != null) {
            entry.close();
        }
    }

    private Path artifactStore(BatchManifest m, PublicationMode mode) {
        if (mode == PublicationMode.EXTERNAL) {
            PublicationPlanner.artifactStoreBlocker(m, env).ifPresent(b -> {
                throw new DponeException(b);
            });
        }
        // internal mode seals the artifact too (one replayable extraction); without a configured store it
        // lives under the dpone home, which is durable worker storage in the pod layout
        return PublicationPlanner.artifactStore(m, env).map(Path::of)
            .orElseGet(() -> io.dpone.connect.EmbeddedDefaults.home().resolve("artifacts").toAbsolutePath());
    }

    /** The protocol's bounds: the queue retention the admitted servers report, the alias's recovery window and wait. */
    static PublicationSettings settings(DdlQueueSettings queue, Duration recovery, Duration ddlWait) {
        return new PublicationSettings(queue.taskMaxLifetime(), recovery, ddlWait,
            PublicationSettings.DEFAULTS.pollInterval(), queue.maxTasksInQueue());
    }

    private static Duration duration(ConnectionSpec spec, String option, Duration fallback) {
        String text = spec.option(option, null);
        if (text == null) {
            return fallback;
        }
        try {
            return Duration.parse(text);
        } catch (java.time.format.DateTimeParseException e) {
            throw new DponeException(BlockerCode.CONNECTION_CONTEXT_INVALID, "connections." + spec.alias() + ".options."
                + option, "not an ISO-8601 duration (e.g. PT24H)");
        }
    }

    /** The plan digest: everything that shapes what is published, so a changed plan is a new operation. */
    static String planDigest(BatchManifest m, PublicationDecision d) {
        Map<String, Object> plan = new TreeMap<>();
        plan.put("source", m.source().table().toString());
        plan.put("columns", m.source().columns());
        plan.put("target", m.sink().table().toString());
        plan.put("order_by", m.sink().options().orderBy());
        plan.put("max_source_bytes", m.sink().maxSourceBytes());
        plan.put("decision", Map.of("mode", d.mode(), "cluster", d.cluster(), "engine", d.engine(),
            "budget", String.valueOf(d.externalContentRowBudget())));
        try {
            return MemberId.Digests.sha256Hex(Json.MAPPER.writeValueAsString(plan));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ClusterPublicationResult resultOf(PublicationDecision d, String operationId,
                                                   ClusterAdmission.Admitted admitted, PublicationOutcome o) {
        return new ClusterPublicationResult(d.mode(), d.replicationMode(), d.cluster(), operationId,
            admitted.inventory().digest(), admitted.inventory().members().stream().map(MemberId::value).toList(),
            o.phase() == null ? null : o.phase().name(), o.resumedFrom() == null ? null : o.resumedFrom().name(),
            o.committed(), o.cleanupComplete(), o.receipt());
    }

    private static ClusterRun report(BatchManifest m, String runId, Instant started, PublicationDecision d,
                                     String operationId, ClusterPublicationResult result, List<Blocker> blockers) {
        ClusterPublicationResult r = result != null ? result : new ClusterPublicationResult(d.mode(),
            d.replicationMode(), d.cluster(), operationId, null, List.of(), null, null, false, false, null);
        return new ClusterRun(runId, m.name(), m.source().table().toString(), m.sink().table().toString(), started,
            Instant.now(), r, blockers);
    }

}
