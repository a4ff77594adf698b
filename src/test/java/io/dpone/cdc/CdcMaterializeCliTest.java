package io.dpone.cdc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.testing.CliRun;
import org.junit.jupiter.api.Test;

/** {@code dpone ops cdc-materialize-clickhouse} is registered under {@code ops}. */
class CdcMaterializeCliTest {
    @Test
    void theCommandIsRegisteredUnderOps() {
        CliRun help = CliRun.of("ops", "cdc-materialize-clickhouse", "--help");
        assertEquals(0, help.exitCode(), help.stderr());
        assertTrue(help.stdout().contains("--delete-mode"), help.stdout());
        assertEquals(2, CliRun.of("ops", "cdc-materialize-clickhouse", "--cdc-dataset", "a.b").exitCode());
    }
}
