package io.dpone.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.retry.RetrySettings;
import io.dpone.testing.CliRun;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Issue 35: {@code dpone ops cdc-runtime-run}'s retry flags are a manifest's {@code retry:} block on the command line:
 * the same defaults, the same checks, usage errors for what cannot work.
 */
class CdcRetryOptionsTest {
    @CommandLine.Command(name = "t")
    static final class Host {
        @CommandLine.Mixin
        CdcRetryOptions retry;
    }

    private static RetrySettings parse(String... args) {
        Host h = new Host();
        new CommandLine(h).parseArgs(args);
        return h.retry.settings();
    }

    @Test
    void theFlagsStateTheBudgetOverTheDefaults() {
        assertNull(parse(), "no flag: the options' default applies");
        assertEquals(new RetrySettings(3, Duration.ofSeconds(30), Duration.ofMillis(50), Duration.ofSeconds(2)),
            parse("--max-retries", "3", "--retry-max-time", "30s", "--retry-initial-backoff", "50ms",
                "--retry-max-backoff", "2s"));
        assertEquals(RetrySettings.DEFAULT.with(0, null, null, null), parse("--max-retries", "0"));
    }

    @Test
    void whatCannotWorkIsAUsageError() {
        for (String[] bad : new String[][] {{"--max-retries", "-1"}, {"--max-retries", "10001"},
            {"--retry-max-time", "5 minutes"}, {"--retry-initial-backoff", "0ms"},
            {"--retry-initial-backoff", "2s", "--retry-max-backoff", "1s"}}) {
            Host h = new Host();
            new CommandLine(h).parseArgs(bad);
            CommandLine.ParameterException e = org.junit.jupiter.api.Assertions.assertThrows(
                CommandLine.ParameterException.class, h.retry::settings, String.join(" ", bad));
            assertTrue(e.getMessage().startsWith(bad[0].startsWith("--retry-initial") ? "--retry-initial-backoff"
                : bad[0]), e.getMessage());
        }
        CliRun run = CliRun.of("ops", "cdc-runtime-run", "--mode", "live", "--source", "mssql", "--sink",
            "clickhouse", "--backend", "mssql_cdc", "--pipeline-name", "p", "--source-schema", "dbo",
            "--source-table", "t", "--target-dataset", "db.t", "--unique-key", "id", "--source-connection-id", "a",
            "--sink-connection-id", "b", "--retry-initial-backoff", "2s", "--retry-max-backoff", "1s");
        assertEquals(DponeCli.USAGE, run.exitCode(), run.stderr());
        assertTrue(run.stderr().contains("--retry-initial-backoff and --retry-max-backoff"), run.stderr());
    }
}
