package io.dpone.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dpone.cdc.local.FileTickFence;
import io.dpone.testing.CliRun;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * One {@code dpone ops cdc-runtime-run} tick in local mode on a case directory ({@code events.json},
 * {@code checkpoint.json}, reports and {@code sink/} under {@code out/}), and the committed state of the shipped
 * example's first batch that cases start from.
 */
final class LocalTick {
    private LocalTick() {
    }

    static CliRun run(Path dir) {
        return CliRun.of("ops", "cdc-runtime-run", "--source", "mssql", "--sink", "clickhouse", "--backend", "mssql_cdc",
            "--pipeline-name", "orders-cdc", "--source-schema", "dbo", "--source-table", "orders",
            "--target-dataset", "analytics.orders", "--unique-key", "order_id",
            "--events-json", dir.resolve("events.json").toString(),
            "--checkpoint-json", dir.resolve("checkpoint.json").toString(),
            "--output-dir", dir.resolve("out").toString(), "--format", "json");
    }

    /** {@code root/baseline} after the shipped example's batch committed (checkpoint at 0x14, sink rows). */
    static Path baseline(Path root) {
        Path dir = root.resolve("baseline");
        copy(Path.of("examples/cdc/orders/events.json"), dir.resolve("events.json"));
        CliRun run = run(dir);
        assertEquals(0, run.exitCode(), run.stderr());
        return dir;
    }

    /** A fresh case directory: empty, or holding the baseline's checkpoint and sink files. */
    static Path caseDir(Path root, Path baseline, boolean withState) {
        Path dir = root.resolve("case");
        delete(dir);
        if (withState) {
            copy(baseline.resolve("checkpoint.json"), dir.resolve("checkpoint.json"));
            for (Path f : sinkFiles(baseline)) {
                copy(f, dir.resolve("out/sink").resolve(f.getFileName()));
            }
        } else {
            mkdirs(dir);
        }
        return dir;
    }

    /** The sink's data files: its rows and receipt, not the fence's empty lock file (kept by design). */
    static List<Path> sinkFiles(Path dir) {
        Path sink = dir.resolve("out/sink");
        if (!Files.isDirectory(sink)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(sink)) {
            return files.filter(f -> !f.getFileName().toString().equals(FileTickFence.SINK_LOCK)).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The checkpoint's and every sink file's bytes (null for a missing checkpoint). */
    static List<Object> state(Path dir) {
        List<Object> out = new ArrayList<>();
        out.add(bytesOrNull(dir.resolve("checkpoint.json")));
        for (Path f : sinkFiles(dir)) {
            out.add(f.getFileName().toString());
            out.add(java.util.HexFormat.of().formatHex(FuzzInvariants.bytes(f)));
        }
        return out;
    }

    /** The reports the tick wrote (text), for the secret and path checks. */
    static String reports(Path dir) {
        StringBuilder sb = new StringBuilder();
        for (String name : List.of("cdc_runtime_run.json", "cdc_runtime_run.md")) {
            Path f = dir.resolve("out").resolve(name);
            if (Files.exists(f)) {
                sb.append(new String(FuzzInvariants.bytes(f), java.nio.charset.StandardCharsets.UTF_8)).append('\n');
            }
        }
        return sb.toString();
    }

    private static String bytesOrNull(Path f) {
        byte[] b = FuzzInvariants.bytes(f);
        return b == null ? null : java.util.HexFormat.of().formatHex(b);
    }

    static void copy(Path from, Path to) {
        try {
            mkdirs(to.getParent());
            Files.copy(from, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void mkdirs(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void delete(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
