package io.dpone.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpone.manifest.ManifestOptions;
import io.dpone.manifest.RetryBlock;
import io.dpone.manifest.ShortDuration;
import io.dpone.retry.RetrySettings;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * A CDC tick's retry budget on the command line (issue 35; docs/operations.md, "Retries"): the four fields of a
 * manifest's {@code retry:} block as flags, read through the same {@link RetryBlock} and checked by the same
 * {@link ManifestOptions#retryBlocker}, so a tick's budget means what a run's does. A picocli mixin.
 */
final class CdcRetryOptions {
    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--max-retries", paramLabel = "N", description = "the tick's retry budget: attempts retried "
        + "after transient faults, every operation kind together, 0..10000 (default 20; 0 turns retries off)")
    Integer maxRetries;
    @Option(names = "--retry-max-time", paramLabel = "DURATION", description = "the time the tick may spend "
        + "retrying, e.g. 5m (default 5m)")
    String maxTime;
    @Option(names = "--retry-initial-backoff", paramLabel = "DURATION", description = "the first backoff delay, "
        + "doubled per retry of one operation, 25%% jitter (default 250ms)")
    String initialBackoff;
    @Option(names = "--retry-max-backoff", paramLabel = "DURATION", description = "the longest backoff delay "
        + "(default 15s)")
    String maxBackoff;

    /** The budget the flags state over {@link RetrySettings#DEFAULT}; null when no flag is given. */
    RetrySettings settings() {
        if (maxRetries == null && maxTime == null && initialBackoff == null && maxBackoff == null) {
            return null;
        }
        ObjectNode block = JsonNodeFactory.instance.objectNode();
        if (maxRetries != null) {
            if (maxRetries < 0 || maxRetries > 10_000) {
                throw usage("--max-retries must be 0..10000");
            }
            block.put("max_retries", maxRetries);
        }
        duration(block, "max_time", "--retry-max-time", maxTime);
        duration(block, "initial_backoff", "--retry-initial-backoff", initialBackoff);
        duration(block, "max_backoff", "--retry-max-backoff", maxBackoff);
        ManifestOptions.retryBlocker(block, "--retry-initial-backoff").ifPresent(b -> {
            throw usage("--retry-initial-backoff and --retry-max-backoff: " + b.message());
        });
        return RetryBlock.parse(block);
    }

    private void duration(ObjectNode block, String key, String flag, String value) {
        if (value == null) {
            return;
        }
        if (ShortDuration.parse(value).isEmpty()) {
            throw usage(flag + " must be a duration such as 250ms, 30s, 5m or 1h");
        }
        block.put(key, value);
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
