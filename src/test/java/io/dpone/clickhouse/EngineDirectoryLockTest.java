package io.dpone.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A second dpone process on a busy {@code DPONE_HOME} is refused before the engine sees the directory: a typed
 * blocker that says another dpone process (with its pid) holds it, no absolute path, no line of the engine's own.
 */
@io.dpone.testing.ProcessTest
class EngineDirectoryLockTest {
    @TempDir
    Path home;


    @Test
    void aSecondProcessOnTheSameHomeIsToldWhoHoldsIt() throws Exception {
        Path data = home.resolve("clickhouse");
        Process holder = new ProcessBuilder(List.of(io.dpone.testing.ChildJvm.JAVA, io.dpone.testing.ChildJvm.tmpdir(), "-cp", System.getProperty("java.class.path"),
            EngineHolderMain.class.getName(), data.toString())).redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(),
                StandardCharsets.UTF_8));
            String line;
            while ((line = out.readLine()) != null && !line.startsWith("open ")) {
                // the engine's start-up lines, if any
            }
            assertTrue(line != null, "the holder did not open the engine");
            String pid = line.substring(5).trim();

            Path base = home.resolve("second");
            ProcessBuilder pb = new ProcessBuilder(List.of(io.dpone.testing.ChildJvm.JAVA, io.dpone.testing.ChildJvm.tmpdir(), "-cp", System.getProperty("java.class.path"),
                "io.dpone.cli.DponeCli", "run", Path.of("examples/batch/embedded-full-refresh.batch.yaml")
                    .toAbsolutePath().toString(), "--run-id", "busy-1", "--format", "json"))
                .redirectOutput(Path.of(base + ".out").toFile()).redirectError(Path.of(base + ".err").toFile());
            pb.environment().remove("DPONE_RUNTIME_CONNECTION_CONTEXT");
            pb.environment().put("DPONE_HOME", home.toString());
            Process second = pb.start();
            assertTrue(second.waitFor(120, TimeUnit.SECONDS), "the second process ends");
            String err = Files.readString(Path.of(base + ".err"));
            assertEquals(1, second.exitValue(), err);
            assertTrue(err.contains("\"sink.embedded_engine_unavailable\"") && err.contains(
                "is in use by another dpone process (pid " + pid + ")"), err);
            assertFalse(err.contains(home.toString()), "no local path: " + err);
        } finally {
            holder.getOutputStream().close();
            if (!holder.waitFor(30, TimeUnit.SECONDS)) {
                holder.destroyForcibly();
            }
        }
    }

    @Test
    void theLockIsFreeAgainOnceItsHolderCloses() {
        Path data = home.resolve("clickhouse");
        try (EngineDirectoryLock first = EngineDirectoryLock.take(data)) {
            io.dpone.error.DponeException busy = org.junit.jupiter.api.Assertions.assertThrows(
                io.dpone.error.DponeException.class, () -> EngineDirectoryLock.take(data));
            assertTrue(busy.blockers().get(0).message().contains("(pid " + ProcessHandle.current().pid() + ")"),
                busy.blockers().toString());
        }
        EngineDirectoryLock.take(data).close();
    }

    @Test
    void aLinkAtTheLockFilesNameIsRefusedTypedAndTheDataDirectoryIsPrivate() throws Exception {
        // issue 37: a planted link (present or dangling) at the lock's name is never followed
        Path data = Files.createDirectories(home.resolve("planted"));
        Files.setPosixFilePermissions(data, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Path victim = Files.writeString(home.resolve("victim"), "keep");
        Files.createSymbolicLink(data.resolve(EngineDirectoryLock.FILE), victim);
        io.dpone.error.DponeException e = org.junit.jupiter.api.Assertions.assertThrows(
            io.dpone.error.DponeException.class, () -> EngineDirectoryLock.take(data));
        assertEquals("runtime.unsafe_path", e.blockers().get(0).code());
        assertEquals("keep", Files.readString(victim));
        Files.delete(data.resolve(EngineDirectoryLock.FILE));
        Files.createSymbolicLink(data.resolve(EngineDirectoryLock.FILE), home.resolve("would-be-created"));
        org.junit.jupiter.api.Assertions.assertThrows(io.dpone.error.DponeException.class,
            () -> EngineDirectoryLock.take(data));
        org.junit.jupiter.api.Assertions.assertFalse(Files.exists(home.resolve("would-be-created")));
        Files.delete(data.resolve(EngineDirectoryLock.FILE));
        EngineDirectoryLock.take(data).close();
        assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(
            Files.getPosixFilePermissions(data)), "the engine's data directory is 0700");
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
            Files.getPosixFilePermissions(data.resolve(EngineDirectoryLock.FILE))));
    }
}
