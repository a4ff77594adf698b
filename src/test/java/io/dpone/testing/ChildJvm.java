package io.dpone.testing;

import java.nio.file.Path;

/**
 * The {@code java} command of a child JVM a test starts, with the test JVM's own temporary directory: a child
 * inherits the environment ({@code DPONE_HOME}, {@code TMPDIR} under {@code target/}, see pom.xml) but not
 * {@code java.io.tmpdir}, which would otherwise be {@code /tmp}. Use {@code ChildJvm.JAVA, ChildJvm.tmpdir()} as
 * the first two words of a child's command line.
 */
public final class ChildJvm {
    /** This JVM's {@code java} executable. */
    public static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    private ChildJvm() {
    }

    /** {@code -Djava.io.tmpdir=} this JVM's temporary directory. */
    public static String tmpdir() {
        return "-Djava.io.tmpdir=" + Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath();
    }
}
