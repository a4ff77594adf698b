package io.dpone.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Embedded defaults stay addressable by alias when a context is set (issue 36): the lines docs/connections.md gives
 * ("The embedded default") resolve to exactly what the embedded default resolves, and without them the alias is
 * unknown, with the context's origin named.
 */
class EmbeddedAliasesInContextTest {
    @TempDir
    Path dir;

    /** The yaml block of docs/connections.md's "The embedded default" section. */
    static String documentedLines() throws Exception {
        String doc = Files.readString(Path.of("docs/connections.md"));
        String section = doc.substring(doc.indexOf("## The embedded default"));
        Matcher m = Pattern.compile("```yaml\\n(.*?)```", Pattern.DOTALL).matcher(section);
        assertTrue(m.find(), "docs/connections.md gives the lines in its embedded-default section");
        return m.group(1);
    }

    @Test
    void theDocumentedLinesResolveToTheEmbeddedDefaults() throws Exception {
        Path file = dir.resolve("connections.yaml");
        Files.writeString(file, documentedLines() + "  clickhouse_server: {type: clickhouse, url: \"http://ch.example:8123\"}\n");
        ConnectionContext context = ConnectionContext.load(file);
        ConnectionContext builtIn = EmbeddedDefaults.context();
        for (var alias : List.of(EmbeddedDefaults.SOURCE_ALIAS, EmbeddedDefaults.CLICKHOUSE_ALIAS,
                EmbeddedDefaults.S3_ALIAS)) {
            ContextEntry want = builtIn.entry(alias).orElseThrow();
            ContextEntry got = context.entry(alias).orElseThrow();
            assertEquals(want, got, alias);
            assertEquals(CredentialResolver.resolve(want, alias).toString(),
                context.resolve(alias, want.type(), alias).toString(), alias);
        }
        assertEquals(EmbeddedDefaults.h2Url(EmbeddedDefaults.home().resolve("source").resolve("demo")),
            context.resolve(EmbeddedDefaults.SOURCE_ALIAS, ConnectionType.MSSQL, "x").url());
        assertTrue(context.entry("clickhouse_server").isPresent(), "the server alias is there too");
    }

    @Test
    void anEmbeddedAliasKeepsItsOwnPath() throws Exception {
        Path file = dir.resolve("connections.yaml");
        Files.writeString(file, "connections:\n  local: {type: clickhouse, embedded: true, options: {path: "
            + dir.resolve("ch") + "}}\n");
        assertEquals(dir.resolve("ch").toString(),
            ConnectionContext.load(file).entry("local").orElseThrow().options().get("path"));
    }

    @Test
    void withoutTheLinesAContextHasNoEmbeddedAlias() throws Exception {
        Path file = dir.resolve("connections.yaml");
        Files.writeString(file, "connections:\n  clickhouse_server: {type: clickhouse, url: \"http://ch.example:8123\"}\n");
        DponeException e = org.junit.jupiter.api.Assertions.assertThrows(DponeException.class,
            () -> ConnectionContext.load(file).resolve(EmbeddedDefaults.SOURCE_ALIAS, ConnectionType.MSSQL, "source"));
        assertEquals(BlockerCode.CONNECTION_REF_UNKNOWN.code(), e.blockers().get(0).code());
        assertTrue(e.blockers().get(0).message().contains("it defines clickhouse_server (clickhouse)"),
            e.blockers().get(0).message());
    }
}
