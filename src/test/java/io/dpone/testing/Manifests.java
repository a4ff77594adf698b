package io.dpone.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes batch manifests for tests. */
public final class Manifests {
    private Manifests() {
    }

    /** A full-refresh manifest from {@code dbo.<table>} to {@code <database>.<table>} on the test aliases. */
    public static Path fullRefresh(Path dir, String table, String database, String extraSinkOptions) {
        String yaml = """
            name: test-full-refresh
            source:
              type: mssql
              connection_ref: %s
              table: {schema: dbo, name: %s}
              options: {fetch_size: 1000, chunk_rows: 700}
            sink:
              type: clickhouse
              connection_ref: %s
              table: {schema: %s, name: %s}
              staging: {schema: %s}
              strategy: {mode: full_refresh}
              options:
                lineage: false
            %s
            """.formatted(TestEngines.SOURCE, table, TestEngines.CLICKHOUSE, database, table, database,
            extraSinkOptions == null ? "" : extraSinkOptions.indent(4));
        return write(dir.resolve(table + ".batch.yaml"), yaml);
    }

    public static Path write(Path file, String yaml) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, yaml);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
