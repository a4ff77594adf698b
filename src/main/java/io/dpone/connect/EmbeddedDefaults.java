package io.dpone.connect;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The connection context used when no {@code DPONE_RUNTIME_CONNECTION_CONTEXT} is configured: a local H2 database
 * in SQL Server mode ({@code mssql_demo}, seeded by {@code dpone demo seed}), the embedded ClickHouse
 * ({@code clickhouse_default}) and an in-process S3 ({@code s3_stage}), all under {@code $DPONE_HOME}
 * (default {@code ~/.cache/dpone/embedded}). No credentials are involved.
 */
public final class EmbeddedDefaults {
    public static final String SOURCE_ALIAS = "mssql_demo";
    public static final String CLICKHOUSE_ALIAS = "clickhouse_default";
    public static final String S3_ALIAS = "s3_stage";

    private EmbeddedDefaults() {
    }

    /** The embedded home directory. */
    public static Path home() {
        String configured = System.getenv("DPONE_HOME");
        return configured != null && !configured.isBlank()
            ? Path.of(configured)
            : Path.of(System.getProperty("user.home"), ".cache", "dpone", "embedded");
    }

    /**
     * The JDBC URL of an H2 database in SQL Server mode at {@code file}. {@code LAZY_QUERY_EXECUTION=1} makes H2
     * stream a result like SQL Server does; without it H2 builds the whole result before the first row (measured:
     * 7.1 s and 1.9 GB peak RSS for 1M demo rows, see bench/README.md). {@code TRACE_LEVEL_FILE=0}: H2 writes no
     * {@code *.trace.db} file of its own (by default it writes the stack trace of every failed statement there, with
     * SQL text and values); failures reach the user through dpone's typed, redacted errors only.
     */
    public static String h2Url(Path file) {
        return "jdbc:h2:file:" + file.toAbsolutePath()
            + ";MODE=MSSQLServer;DATABASE_TO_UPPER=FALSE;CASE_INSENSITIVE_IDENTIFIERS=TRUE;LAZY_QUERY_EXECUTION=1"
            + ";TRACE_LEVEL_FILE=0";
    }

    /**
     * When {@code url} is the embedded demo source's ({@code $DPONE_HOME/source}), makes its directory private (0700,
     * see {@link PrivateFiles#ownDirectory}) before H2 creates its files there with its own modes; any other URL is
     * left alone.
     */
    public static void privateSource(String url) throws java.io.IOException {
        Path dir = home().resolve("source");
        if (h2Url(dir.resolve("demo")).equals(url)) {
            PrivateFiles.ownDirectory(dir);
        }
    }

    static ConnectionContext context() {
        return context(home());
    }

    /** The embedded default rooted at {@code home}. */
    public static ConnectionContext context(Path home) {
        Map<String, ContextEntry> entries = new LinkedHashMap<>();
        entries.put(SOURCE_ALIAS, new ContextEntry(SOURCE_ALIAS, ConnectionType.MSSQL,
            h2Url(home.resolve("source").resolve("demo")), "sa", null, null, false, Map.of()));
        entries.put(CLICKHOUSE_ALIAS, new ContextEntry(CLICKHOUSE_ALIAS, ConnectionType.CLICKHOUSE, null, null,
            null, null, true, Map.of("path", home.resolve("clickhouse").toString())));
        entries.put(S3_ALIAS, new ContextEntry(S3_ALIAS, ConnectionType.S3, null, null, null, null, true,
            Map.of("path", home.resolve("s3").toString())));
        return ConnectionContext.of(entries, true);
    }
}
