package io.dpone.storage;

import java.util.regex.Pattern;

/**
 * The object prefix one run owns, built from a {@code uri_prefix} template such as
 * {@code s3://dpone-stage/certification/{run_id}/} and a run id. The template must be an {@code s3://} URI with a
 * bucket and must contain {@code {run_id}} exactly once, in the key part, so that two runs never share a prefix
 * and deleting one run's prefix cannot touch another's. {@link #keyPrefix()} always ends with {@code /}.
 *
 * @param bucket    bucket name, e.g. {@code dpone-stage}
 * @param keyPrefix key prefix inside the bucket, e.g. {@code certification/r-42/}
 * @param runId     the validated run id
 */
public record RunPrefix(String bucket, String keyPrefix, String runId) {
    public static final String PLACEHOLDER = "{run_id}";
    public static final Pattern RUN_ID = io.dpone.manifest.RunId.PATTERN;
    /** S3 bucket naming rules (3-63 chars, lower-case letters, digits, dots, hyphens). */
    static final Pattern BUCKET = Pattern.compile("^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$");
    private static final Pattern SAFE_KEY_CHARS = Pattern.compile("^[A-Za-z0-9._\\-/=]*$");
    private static final String SCHEME = "s3://";

    public RunPrefix {
        if (bucket == null || !BUCKET.matcher(bucket).matches()) {
            throw new IllegalArgumentException("invalid bucket name: " + quote(bucket));
        }
        checkRunId(runId);
        if (keyPrefix == null || keyPrefix.startsWith("/") || !keyPrefix.endsWith("/")
                || !keyPrefix.contains(runId)) {
            throw new IllegalArgumentException("invalid run key prefix: " + quote(keyPrefix));
        }
    }

    /**
     * Expands {@code template} for {@code runId}.
     *
     * @throws IllegalArgumentException if the run id does not match {@link #RUN_ID} or the template is not
     *                                  {@code s3://bucket/...{run_id}...} with plain path segments
     */
    public static RunPrefix of(String template, String runId) {
        checkRunId(runId);
        if (template == null || !template.startsWith(SCHEME)) {
            throw new IllegalArgumentException("uri_prefix must start with s3://, got " + quote(template));
        }
        if (template.contains("..")) {
            throw new IllegalArgumentException("uri_prefix must not contain '..': " + quote(template));
        }
        String rest = template.substring(SCHEME.length());
        int slash = rest.indexOf('/');
        String bucket = slash < 0 ? rest : rest.substring(0, slash);
        String path = slash < 0 ? "" : rest.substring(slash + 1);
        if (bucket.isEmpty()) {
            throw new IllegalArgumentException("uri_prefix has no bucket: " + quote(template));
        }
        if (!BUCKET.matcher(bucket).matches()) {
            throw new IllegalArgumentException("uri_prefix bucket is not a valid S3 bucket name: " + quote(template));
        }
        int at = path.indexOf(PLACEHOLDER);
        if (at < 0 || path.indexOf(PLACEHOLDER, at + 1) >= 0) {
            throw new IllegalArgumentException("uri_prefix must contain " + PLACEHOLDER + " exactly once in the key"
                    + " part: " + quote(template));
        }
        String literal = path.substring(0, at) + path.substring(at + PLACEHOLDER.length());
        if (!SAFE_KEY_CHARS.matcher(literal).matches()) {
            throw new IllegalArgumentException("uri_prefix may only use letters, digits and . _ - = / in its key"
                    + " part: " + quote(template));
        }
        String keyPrefix = path.replace(PLACEHOLDER, runId);
        if (!keyPrefix.endsWith("/")) {
            keyPrefix += "/";
        }
        for (String segment : keyPrefix.substring(0, keyPrefix.length() - 1).split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                throw new IllegalArgumentException("uri_prefix has an empty, '.' or '..' path segment: "
                        + quote(template));
            }
        }
        return new RunPrefix(bucket, keyPrefix, runId);
    }

    /**
     * The key part of {@code template} before {@code {run_id}}: every run prefix of the template starts with it, so
     * listing under it finds them all (a validated template; see {@link #of}).
     */
    public static String scanPrefix(String template) {
        String rest = template.substring(SCHEME.length());
        int slash = rest.indexOf('/');
        String path = slash < 0 ? "" : rest.substring(slash + 1);
        return path.substring(0, path.indexOf(PLACEHOLDER));
    }

    /**
     * The run prefix of {@code template} that holds {@code key}, if any: the run id is read where the template puts
     * {@code {run_id}} and must be a valid run id whose expanded prefix the key starts with.
     */
    public static java.util.Optional<RunPrefix> owning(String template, String key) {
        String scan = scanPrefix(template);
        if (!key.startsWith(scan)) {
            return java.util.Optional.empty();
        }
        String rest = key.substring(scan.length());
        for (int end = 1; end <= rest.length(); end++) {
            String candidate = rest.substring(0, end);
            if (!RUN_ID.matcher(candidate).matches()) {
                continue;
            }
            RunPrefix p = of(template, candidate);
            if (key.startsWith(p.keyPrefix())) {
                return java.util.Optional.of(p);
            }
        }
        return java.util.Optional.empty();
    }

    /** Throws unless {@code runId} matches {@link #RUN_ID}. */
    public static String checkRunId(String runId) {
        if (runId == null || !RUN_ID.matcher(runId).matches()) {
            throw new IllegalArgumentException("run id must match " + RUN_ID.pattern() + ", got " + quote(runId));
        }
        return runId;
    }

    /** Key of {@code relative} inside this run's prefix; {@code relative} must not escape it. */
    public String key(String relative) {
        if (relative == null || relative.isEmpty() || relative.startsWith("/")) {
            throw new IllegalArgumentException("relative key must be non-empty and must not start with '/': "
                    + quote(relative));
        }
        for (String segment : relative.split("/", -1)) {
            if (segment.equals(".") || segment.equals("..")) {
                throw new IllegalArgumentException("relative key must not contain '.' or '..' segments: "
                        + quote(relative));
            }
        }
        return keyPrefix + relative;
    }

    /** {@code s3://bucket/keyPrefix}. */
    public String uri() {
        return SCHEME + bucket + "/" + keyPrefix;
    }

    private static String quote(String s) {
        if (s == null) {
            return "null";
        }
        return "'" + (s.length() > 200 ? s.substring(0, 200) + "..." : s) + "'";
    }
}
