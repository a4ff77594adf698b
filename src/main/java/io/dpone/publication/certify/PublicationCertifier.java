package io.dpone.publication.certify;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseEndpoints;
import io.dpone.clickhouse.ClickHouseOperations;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.manifest.BatchManifest;
import io.dpone.publication.MemberId;
import io.dpone.publication.admission.ConfiguredEndpointResolver;
import io.dpone.publication.artifact.GenerationMarker;
import io.dpone.publication.plan.PublicationDecision;
import io.dpone.publication.plan.PublicationPlanner;
import io.dpone.publication.protocol.PublicationMode;
import io.dpone.publication.protocol.PublicationSettings;
import io.dpone.publication.protocol.PublicationTarget;
import io.dpone.publication.protocol.Receipt;
import io.dpone.publication.runtime.ClusterAdmission;
import io.dpone.publication.runtime.ClusterPublicationRunner;
import io.dpone.publication.runtime.ClusterRun;
import io.dpone.report.AtomicFiles;
import io.dpone.report.ReportWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@code dpone certify publication}: runs the publication protocol against a live cluster in an explicitly
 * approved environment, then checks on every member, over fresh direct connections, that the target is the
 * receipt's table (UUID), carries the receipt's generation marker, holds exactly the artifact's rows, and that no
 * owned candidate or predecessor is left. Only when all hold is the evidence {@code PASS}. Ordinary runs never
 * write PASS evidence.
 */
public final class PublicationCertifier {
    /** The deployment sets this to the environment it approves; {@code --approve-environment} must name it. */
    public static final String APPROVAL_ENV = "DPONE_CERTIFICATION_ENVIRONMENT";
    public static final String FILE = "publication_certification.json";
    private final ConnectionContext context;
    private final Function<String, String> env;

    public PublicationCertifier(ConnectionContext context, Function<String, String> env) {
        this.context = context;
        this.env = env;
    }

    public PublicationCertification certify(BatchManifest m, String runId, String environment, Path output) {
        String approved = env.apply(APPROVAL_ENV);
        if (approved == null || approved.isBlank() || !approved.equals(environment)) {
            throw new DponeException(BlockerCode.CERTIFY_ENVIRONMENT_NOT_APPROVED, "--approve-environment",
                "live certification runs only where the deployment approved this environment (" + APPROVAL_ENV + ")");
        }
        PublicationDecision decision = PublicationPlanner.decide(m, env);
        if (!decision.requested()) {
            throw new DponeException(BlockerCode.CERTIFY_SCENARIO_UNKNOWN, "sink.options.physical_design",
                "the manifest requests no cluster publication to certify");
        }
        ClusterRun run = new ClusterPublicationRunner(context, env).run(m, runId);
        List<CertificationCheck> checks = new ArrayList<>();
        List<Blocker> blockers = new ArrayList<>(run.blockers());
        Receipt receipt = run.publication() == null ? null : run.publication().receipt();
        if (run.passed() && receipt != null) {
            try {
                checks.addAll(memberChecks(m, decision, receipt));
            } catch (DponeException e) {
                blockers.addAll(e.blockers());
            }
            checks.add(new CertificationCheck("cleanup_complete", "authority", run.publication().cleanupComplete()));
        }
        boolean pass = run.passed() && receipt != null && blockers.isEmpty() && !checks.isEmpty()
            && checks.stream().allMatch(CertificationCheck::passed);
        PublicationCertification evidence = new PublicationCertification(PublicationCertification.SCHEMA,
            "live_certification", pass ? "PASS" : "FAIL", environment, io.dpone.report.BuildInfo.commit(), runId, run.publication(), checks, blockers,
            Instant.now());
        AtomicFiles.write(output.resolve(FILE), ReportWriter.json(evidence));
        return evidence;
    }

    private List<CertificationCheck> memberChecks(BatchManifest m, PublicationDecision d, Receipt receipt) {
        PublicationMode mode = PublicationMode.ofReplicationMode(d.replicationMode());
        PublicationTarget target = new PublicationTarget(mode, d.cluster(), m.sink().table().schema(),
            m.sink().table().name(), d.engine(), m.sink().options().orderBy(), d.externalContentRowBudget());
        List<CertificationCheck> checks = new ArrayList<>();
        try (ClickHouseEndpoint entry = ClickHouseEndpoints.open(context.resolve(m.sink().connectionRef(),
                ConnectionType.CLICKHOUSE, "sink.connection_ref"));
             ClusterAdmission.Admitted admitted = ClusterAdmission.admit(entry,
                 new ConfiguredEndpointResolver(context, m.sink().connectionRef()), target,
                 PublicationSettings.DEFAULTS.maxRecoveryWindow())) {
            Map<String, Receipt.Member> byId = new java.util.HashMap<>();
            receipt.members().forEach(rm -> byId.put(rm.memberId(), rm));
            checks.add(new CertificationCheck("inventory_matches_receipt", "cluster",
                admitted.inventory().digest().equals(receipt.inventoryDigest())));
            for (Map.Entry<MemberId, ClickHouseEndpoint> e : admitted.endpoints().entrySet()) {
                String id = e.getKey().value();
                Receipt.Member rm = byId.get(id);
                ClickHouseOperations ops = e.getValue().operations();
                Optional<ClickHouseOperations.TableInfo> t = ops.table(target.database(), target.table());
                boolean present = t.isPresent() && rm != null;
                checks.add(new CertificationCheck("target_uuid_is_receipt", id, present && t.get().uuid().equals(rm.targetUuid())));
                GenerationMarker marker = present ? GenerationMarker.parse(t.get().comment()) : null;
                checks.add(new CertificationCheck("generation_marker", id,
                    marker != null && marker.generationId().equals(receipt.generationId())));
                long rows = present ? ops.count(target.database(), target.table()) : -1;
                checks.add(new CertificationCheck("exact_row_count", id, rows == receipt.artifact().rows()));
                long leftovers = ops.tablesWithPrefix(target.database(), target.table() + "__dpone_").size();
                checks.add(new CertificationCheck("no_owned_leftovers", id, leftovers == 0));
            }
        }
        return checks;
    }
}
