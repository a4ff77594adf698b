package io.dpone.manifest;

import java.util.regex.Pattern;

/**
 * The one run-id rule ({@code --run-id}, scheduler operation ids): 1-128 characters of letters, digits, {@code .},
 * {@code _} or {@code -}, starting with a letter or digit. It keys a run's journal, staging tables and object prefix.
 */
public final class RunId {
    public static final Pattern PATTERN = Pattern.compile("^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$");
    public static final String RULE =
        "run id must be 1-128 characters of letters, digits, '.', '_' or '-', starting with a letter or digit";

    private RunId() {
    }

    /** True when {@code runId} follows the rule. */
    public static boolean valid(String runId) {
        return runId != null && PATTERN.matcher(runId).matches();
    }
}
