package io.dpone.report;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * The build this code came from: {@code build-info.properties}, written at build time (pom.xml,
 * {@code maven-antrun-plugin} execution {@code build-info}) from {@code git rev-parse HEAD}. {@link #commit()} is
 * the 40-hex commit, with {@code -dirty} when tracked files differed from it at build time, or {@code unknown}
 * when the build ran outside a git checkout or the resource is missing (e.g. classes compiled by an IDE).
 */
public final class BuildInfo {
    static final String RESOURCE = "/io/dpone/report/build-info.properties";
    public static final String UNKNOWN = "unknown";
    private static final Pattern COMMIT = Pattern.compile("^[0-9a-f]{40}(-dirty)?$");
    private static final String VALUE = load();

    private BuildInfo() {
    }

    /** The build commit ({@code <sha>}, {@code <sha>-dirty} or {@code unknown}). */
    public static String commit() {
        return VALUE;
    }

    static String parse(InputStream in) throws IOException {
        if (in == null) {
            return UNKNOWN;
        }
        Properties p = new Properties();
        p.load(in);
        String commit = p.getProperty("commit", "").strip();
        return COMMIT.matcher(commit).matches() ? commit : UNKNOWN;
    }

    private static String load() {
        try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
            return parse(in);
        } catch (IOException e) {
            return UNKNOWN;
        }
    }
}
