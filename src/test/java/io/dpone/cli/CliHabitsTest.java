package io.dpone.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.testing.CliRun;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The CLI fits a person's habits: help on every command, described parameters, plain words for a missing file. */
class CliHabitsTest {
    private static List<List<String>> commands(CommandLine line, List<String> path) {
        List<List<String>> out = new ArrayList<>();
        out.add(path);
        line.getSubcommands().forEach((name, sub) -> {
            if (!name.equals("help")) {
                List<String> next = new ArrayList<>(path);
                next.add(name);
                out.addAll(commands(sub, next));
            }
        });
        return out;
    }

    @Test
    void everyCommandAndSubcommandPrintsItsHelpAndExitsZero() {
        List<List<String>> all = commands(new CommandLine(new DponeCli()), List.of());
        assertTrue(all.size() >= 12, all.toString());
        for (List<String> path : all) {
            for (String flag : List.of("-h", "--help")) {
                List<String> args = new ArrayList<>(path);
                args.add(flag);
                CliRun run = CliRun.of(args.toArray(new String[0]));
                assertEquals(0, run.exitCode(), args + ": " + run.stderr());
                assertTrue(run.stdout().startsWith("Usage: dpone" + (path.isEmpty() ? "" : " " + String.join(" ",
                    path))), args + ": " + run.stdout());
                assertEquals("", run.stderr(), args.toString());
            }
        }
    }

    @Test
    void everyParameterAndOptionIsDescribed() {
        for (List<String> path : commands(new CommandLine(new DponeCli()), List.of())) {
            CommandLine line = new CommandLine(new DponeCli());
            for (String name : path) {
                line = line.getSubcommands().get(name);
            }
            for (CommandLine.Model.ArgSpec arg : line.getCommandSpec().args()) {
                String text = String.join(" ", arg.description()).trim();
                assertFalse(text.isEmpty(), path + ": " + arg + " has no description");
            }
        }
    }

    @Test
    void aMissingManifestIsNamedAsNotFound(@TempDir Path dir) {
        CliRun run = CliRun.of("check", dir.resolve("nope.batch.yaml").toString(), "--format", "json");
        assertEquals(DponeCli.BLOCKED, run.exitCode());
        String all = run.stdout() + run.stderr();
        // the path given is named as far as the redaction allows: an absolute one is masked
        assertTrue(all.contains("manifest.unreadable") && all.contains("manifest file '<redacted:path>' not found"),
            all);
        assertFalse(all.contains(dir.toString()), "no local path in the output");
    }

    @Test
    void checkReportsAnUnknownAliasNextToTheSchemasProblems(@TempDir Path dir) throws Exception {
        String example = java.nio.file.Files.readString(Path.of("examples/batch/embedded-full-refresh.batch.yaml"));
        assertTrue(example.contains("connection_ref: mssql_demo") && example.contains("chunk_rows: 100000"),
            "the example changed");
        Path bad = java.nio.file.Files.writeString(dir.resolve("bad.batch.yaml"), example
            .replace("connection_ref: mssql_demo", "connection_ref: nope_alias")
            .replace("chunk_rows: 100000", "chunk_rows: -1"));
        CliRun run = CliRun.of("check", bad.toString(), "--format", "json");
        assertEquals(DponeCli.BLOCKED, run.exitCode());
        assertTrue(run.stderr().contains("source.options.chunk_rows") && run.stderr().contains("connection.ref_unknown")
            && run.stderr().contains("source.connection_ref"), run.stderr());
    }
}
