package io.dpone.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.camel.health.HealthCheck;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.Test;

class StartedHealthCheckTest {

    @Test
    void readinessIsDownUntilServeHasStartedAndNeverALivenessCheck() throws Exception {
        try (DefaultCamelContext ctx = new DefaultCamelContext()) {
            StartedHealthCheck check = new StartedHealthCheck();
            check.setCamelContext(ctx);
            assertTrue(check.isReadiness());
            assertFalse(check.isLiveness(), "a pod still starting is alive");
            HealthCheck.Result starting = check.call();
            assertEquals(HealthCheck.State.DOWN, starting.getState());
            assertTrue(starting.getMessage().orElse("").contains("starting"));
            check.started();
            assertEquals(HealthCheck.State.UP, check.call().getState());
        }
    }
}
