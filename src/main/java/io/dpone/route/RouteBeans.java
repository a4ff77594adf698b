package io.dpone.route;

import io.dpone.camel.DponeBeans;
import io.dpone.publication.runtime.ClusterPublicationJob;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The beans of the transfer routes, the cluster publication route and the {@code full_refresh} route's run steps,
 * bound by name into every context ({@code META-INF/services/io.dpone.camel.DponeBeans}); also the phase watchdog's
 * intercept strategy and the production {@link RunConnectors}.
 */
public final class RouteBeans implements DponeBeans {
    @Override
    public Map<String, Object> beans() {
        Map<String, Object> beans = new LinkedHashMap<>();
        beans.put("openEngine", new OpenEngineProcessor());
        beans.put("detectResume", new DetectResumeProcessor());
        beans.put("openSource", new OpenSourceProcessor());
        beans.put("prepareSink", new PrepareSinkProcessor());
        beans.put("startEncoder", new StartEncoderProcessor());
        beans.put("createStaging", new CreateStagingProcessor());
        beans.put("stagingStats", new StagingStatsProcessor());
        beans.put("loadChunk", new LoadChunkProcessor());
        beans.put("qualityGates", new QualityGateProcessor());
        beans.put("restoreGates", new RestoreGatesProcessor());
        beans.put("publish", new PublishProcessor());
        beans.put("dropPredecessor", new DropPredecessorProcessor());
        beans.put("cleanupAudit", new CleanupAuditProcessor());
        beans.put("failedRun", new FailedRunProcessor());
        beans.put("prepareObjectStorage", new PrepareObjectStorageProcessor());
        beans.put("uploadChunk", new UploadChunkProcessor());
        beans.put("pullChunk", new PullProcessor(false));
        beans.put("pullRest", new PullProcessor(true));
        beans.put("deleteStagedObjects", new DeleteStagedObjectsProcessor());
        beans.put("clusterDecide", new ClusterStepProcessor(ClusterPublicationJob::decide));
        beans.put("clusterAdmit", new ClusterStepProcessor(ClusterPublicationJob::admit));
        beans.put("clusterPublish", new ClusterStepProcessor(ClusterPublicationJob::publish));
        beans.put("decidePublication", new FullRefreshSteps.DecidePublication());
        beans.put("clusterJob", new FullRefreshSteps.OpenClusterJob());
        beans.put("clusterReport", new FullRefreshSteps.ClusterReport());
        beans.put("closeClusterJob", new FullRefreshSteps.CloseClusterJob());
        beans.put("planRun", new FullRefreshSteps.PlanRun());
        beans.put("recordRunFailure", new FullRefreshSteps.RecordRunFailure());
        beans.put("closeRun", new FullRefreshSteps.CloseRun());
        beans.put("runReport", new FullRefreshSteps.Report());
        beans.put("finishReport", new FullRefreshSteps.Finish());
        beans.put("dponePhaseWatchdog", new PhaseInterceptStrategy());
        beans.put(RunConnectors.BEAN, RunConnectors.REAL);
        return beans;
    }
}
