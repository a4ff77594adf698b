package io.dpone.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded source writes no trace file of its own: a failed statement leaves no {@code *.trace.db}. */
class EmbeddedSourceTraceTest {
    @TempDir
    Path dir;

    @Test
    void aFailedStatementOnTheEmbeddedSourceLeavesNoTraceFile() throws Exception {
        try (Connection c = DriverManager.getConnection(EmbeddedDefaults.h2Url(dir.resolve("demo")), "sa", "");
             Statement st = c.createStatement()) {
            assertThrows(SQLException.class, () -> st.executeQuery("SELECT secret_column FROM dbo.missing_table"));
        }
        try (Stream<Path> files = Files.list(dir)) {
            List<String> traces = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".trace.db"))
                .toList();
            assertEquals(List.of(), traces);
        }
    }
}
