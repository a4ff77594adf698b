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
 * {@link #version()} is the project version the build was made with ({@code 0.1.0-SNAPSHOT}), or {@code unknown}.
 */
public final class BuildInfo {
    static final String RESOURCE = "/io/dpone/report/build-info.properties";
    public static final String UNKNOWN = "unknown";
    private static final Pattern COMMIT = Pattern.compile("^[0-9a-f]{40}(-dirty)?$");
    private static final Pattern VERSION = Pattern.compile("^[0-9][0-9A-Za-z.+-]{0,63}$");
    private static final Properties PROPERTIES = load();
    private static final String VALUE = commit(PROPERTIES);

    private BuildInfo() {
    }

    /** The build commit ({@code <sha>}, {@code <sha>-dirty} or {@code unknown}). */
    public static String commit() {
        return VALUE;
    }

    /** The project version of the build ({@code 0.1.0-SNAPSHOT}, a release {@code 0.1.0}) or {@code unknown}. */
    public static String version() {
        return version(PROPERTIES);
    }

    static String parse(InputStream in) throws IOException {
        return commit(read(in));
    }

    static Properties read(InputStream in) throws IOException {
        Properties p = new Properties();
        if (in != null) {
            p.load(in);
        }
        return p;
    }

    static String commit(Properties p) {
        String commit = p.getProperty("commit", "").strip();
        return COMMIT.matcher(commit).matches() ? commit : UNKNOWN;
    }

    static String version(Properties p) {
        String version = p.getProperty("version", "").strip();
        return VERSION.matcher(version).matches() ? version : UNKNOWN;
    }

    private static Properties load() {
        try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
            return read(in);
        } catch (IOException e) {
            return new Properties();
        }
    }
}
