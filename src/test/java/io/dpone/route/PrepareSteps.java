package io.dpone.route;

import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * The prepare steps of a transfer route, in the route's order, for tests that drive the processors without Camel:
 * {@code open_engine}, {@code detect_resume}, then (the route's {@code published_before} choice) unless the run
 * published already {@code open_source}, {@code prepare_sink}, {@code start_encoder}, {@code create_staging},
 * {@code staging_stats}. A failing step ends it, as in the route (the error policy is the test's to call).
 */
final class PrepareSteps {
    private PrepareSteps() {
    }

    static void run(Exchange e) {
        try {
            new OpenEngineProcessor().process(e);
            new DetectResumeProcessor().process(e);
            if (e.getProperty(RouteProperties.RUN, TransferRun.class).resumedAfterPublish()) {
                return;
            }
            for (Processor p : new Processor[] {new OpenSourceProcessor(), new PrepareSinkProcessor(),
                new StartEncoderProcessor(), new CreateStagingProcessor(), new StagingStatsProcessor()}) {
                p.process(e);
            }
        } catch (RuntimeException | Error failure) {
            throw failure;
        } catch (Exception checked) {
            throw new IllegalStateException(checked);
        }
    }
}
